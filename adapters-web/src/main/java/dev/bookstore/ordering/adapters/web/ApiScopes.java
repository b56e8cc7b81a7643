package dev.bookstore.ordering.adapters.web;

import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The token scopes an operation's description lists. An operation with neither annotation is an operator's
 * ({@code ProblemDocumentation} adds that scope), as in the filter chain.
 */
final class ApiScopes {

    private ApiScopes() {
    }

    /** Only a customer, acting as itself. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @SecurityRequirement(name = ApiDocumentationConfiguration.BEARER, scopes = Caller.CUSTOMER_SCOPE)
    @interface Customer {
    }

    /** A customer for its own orders, or an operator for anyone's. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @SecurityRequirement(name = ApiDocumentationConfiguration.BEARER, scopes = Caller.CUSTOMER_SCOPE)
    @SecurityRequirement(name = ApiDocumentationConfiguration.BEARER, scopes = Caller.OPERATOR_SCOPE)
    @interface CustomerOrOperator {
    }
}
