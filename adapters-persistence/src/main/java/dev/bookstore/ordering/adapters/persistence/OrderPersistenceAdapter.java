package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.application.port.out.OrderRepository;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;

/** {@link OrderRepository} on JPA. Lines never change after placing, so an update only touches the status. */
@Component
class OrderPersistenceAdapter implements OrderRepository {

    private final OrderJpaRepository repository;

    OrderPersistenceAdapter(OrderJpaRepository repository) {
        this.repository = repository;
    }

    @Override
    public void save(Order order) {
        repository.findById(order.id().value()).ifPresentOrElse(
                existing -> existing.status(order.status()),
                () -> repository.save(OrderMapper.toEntity(order)));
    }

    @Override
    public Optional<Order> findById(OrderId id) {
        return repository.findById(id.value()).map(OrderMapper::toDomain);
    }

    @Override
    public List<Order> findRecent(int limit) {
        return repository.findByOrderByPlacedAtDesc(Limit.of(limit)).stream().map(OrderMapper::toDomain).toList();
    }
}
