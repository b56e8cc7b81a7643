package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.adapters.web.security.WebSecurityConfiguration;
import dev.bookstore.ordering.application.ordering.OrderDetails;
import dev.bookstore.ordering.domain.order.CustomerId;
import java.util.Optional;
import java.util.UUID;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Who calls, as the bearer token says: a customer (scope {@code orders}, the token's subject is the customer id)
 * and/or an operator (scope {@code orders.admin}). The web layer asks it what the caller may see; the filter
 * chain ({@link WebSecurityConfiguration}) has already checked that the caller has one of the scopes at all.
 */
public record Caller(Optional<CustomerId> customer, boolean operator) {

    public static final String CUSTOMER_SCOPE = "orders";
    public static final String OPERATOR_SCOPE = "orders.admin";

    static Caller of(Authentication authentication) {
        boolean customerScope = false;
        boolean operator = false;
        for (GrantedAuthority authority : authentication.getAuthorities()) {
            customerScope |= ("SCOPE_" + CUSTOMER_SCOPE).equals(authority.getAuthority());
            operator |= ("SCOPE_" + OPERATOR_SCOPE).equals(authority.getAuthority());
        }
        Optional<CustomerId> customer = Optional.empty();
        if (customerScope && authentication.getPrincipal() instanceof Jwt jwt) {
            customer = customerId(jwt.getSubject());
        }
        return new Caller(customer, operator);
    }

    private static Optional<CustomerId> customerId(String subject) {
        if (subject == null || subject.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CustomerId(UUID.fromString(subject)));
        } catch (IllegalArgumentException notAUuid) {
            return Optional.empty();
        }
    }

    /** An operator sees every order, a customer only its own; any other order is, to this caller, not there. */
    boolean maySee(OrderDetails order) {
        return operator || customer.map(id -> id.value().equals(order.customerId())).orElse(false);
    }

    /** Only a customer places orders, and only as itself. */
    boolean mayPlaceFor(UUID customerId) {
        return customer.map(id -> id.value().equals(customerId)).orElse(false);
    }
}
