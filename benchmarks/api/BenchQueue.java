import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;

/**
 * The benchmark's queue on RabbitMQ, with the RabbitMQ Java client. One action per run:
 *
 * <ul>
 *   <li>{@code declare}: the service's exchange (durable topic, as the service declares it) and the queue,
 *       non-durable and not auto-deleted (an auto-deleted queue would vanish between consumers and the relay's
 *       mandatory messages would come back unroutable), bound with {@code order.#}, then purged. Prints
 *       {@code rabbitmq_version=...} from the broker's connection properties.</li>
 *   <li>{@code purge}: drops whatever the queue holds. Prints {@code purged=N}.</li>
 *   <li>{@code delete}: deletes the queue.</li>
 * </ul>
 *
 * <p>Run: {@code java -cp amqp-client.jar:slf4j-api.jar BenchQueue.java HOST PORT QUEUE EXCHANGE ACTION}
 * (user and password from RABBIT_USER / RABBIT_PASSWORD, default guest).
 */
public class BenchQueue {

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: BenchQueue HOST PORT QUEUE EXCHANGE declare|purge|delete");
            System.exit(2);
        }
        String queue = args[2];
        String exchange = args[3];
        String action = args[4];
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(args[0]);
        factory.setPort(Integer.parseInt(args[1]));
        factory.setUsername(System.getenv().getOrDefault("RABBIT_USER", "guest"));
        factory.setPassword(System.getenv().getOrDefault("RABBIT_PASSWORD", "guest"));
        factory.setConnectionTimeout(5000);
        try (Connection connection = factory.newConnection("ordering-api-benchmark")) {
            switch (action) {
                case "declare" -> {
                    try (Channel channel = connection.createChannel()) {
                        channel.exchangeDeclare(exchange, "topic", true, false, false, null);
                    }
                    try (Channel channel = connection.createChannel()) {
                        channel.queueDeclare(queue, false, false, false, null);
                    } catch (IOException e) {
                        // left behind with other properties (406 PRECONDITION_FAILED): replace it
                        System.err.println("queue " + queue + " exists with other properties; recreating it");
                        try (Channel channel = connection.createChannel()) {
                            channel.queueDelete(queue);
                            channel.queueDeclare(queue, false, false, false, null);
                        }
                    }
                    try (Channel channel = connection.createChannel()) {
                        channel.queueBind(queue, exchange, "order.#");
                        channel.queuePurge(queue);
                    }
                    Object version = connection.getServerProperties().get("version");
                    System.out.println("rabbitmq_version=" + (version == null ? "unknown" : version.toString()));
                }
                case "purge" -> {
                    try (Channel channel = connection.createChannel()) {
                        System.out.println("purged=" + channel.queuePurge(queue).getMessageCount());
                    }
                }
                case "delete" -> {
                    try (Channel channel = connection.createChannel()) {
                        channel.queueDelete(queue);
                    }
                }
                default -> {
                    System.err.println("unknown action " + action);
                    System.exit(2);
                }
            }
        }
    }
}
