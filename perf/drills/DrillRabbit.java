import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The drills' broker side, with the RabbitMQ Java client (and, for the proxy, the JDK only). One action per run:
 *
 * <ul>
 *   <li>{@code declare HOST PORT QUEUE EXCHANGE}: the exchange (durable topic, as the service declares it) and the
 *       audit queue (durable, so that it survives a stopped broker) bound with {@code order.#}, purged.</li>
 *   <li>{@code delete HOST PORT QUEUE EXCHANGE}: deletes the queue and the exchange.</li>
 *   <li>{@code consume HOST PORT QUEUE EXCHANGE FILE}: consumes the audit queue (acked after each line is written; the client recovers after a broker restart) until terminated, and
 *       appends one line per delivery to FILE: {@code receivedEpochMillis messageId correlationId type
 *       redelivered}. Lines are flushed as they come, so the drill can count them while it runs.</li>
 *   <li>{@code proxy LISTEN_PORT TARGET_HOST TARGET_PORT CONTROL_PORT}: a TCP proxy to the broker that the drill
 *       can cut: a line {@code cut} on the control port closes every proxied connection and refuses new ones (as
 *       a stopped broker does), {@code open} lets them through again; each is answered {@code ok}.</li>
 * </ul>
 *
 * <p>User and password from RABBIT_USER / RABBIT_PASSWORD (default guest).
 */
public class DrillRabbit {

    public static void main(String[] args) throws Exception {
        String action = args[0];
        if (action.equals("proxy")) {
            proxy(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            return;
        }
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setUsername(System.getenv().getOrDefault("RABBIT_USER", "guest"));
        factory.setPassword(System.getenv().getOrDefault("RABBIT_PASSWORD", "guest"));
        factory.setConnectionTimeout(5000);
        String queue = args[3];
        String exchange = args[4];
        switch (action) {
            case "declare" -> {
                try (Connection connection = factory.newConnection("ordering-drill-setup");
                     Channel channel = connection.createChannel()) {
                    channel.exchangeDeclare(exchange, "topic", true, false, false, null);
                    channel.queueDeclare(queue, true, false, false, null); // durable: survives stop_app / start_app
                    channel.queueBind(queue, exchange, "order.#");
                    channel.queuePurge(queue);
                    Object version = connection.getServerProperties().get("version");
                    System.out.println("rabbitmq_version=" + (version == null ? "unknown" : version.toString()));
                }
            }
            case "delete" -> {
                try (Connection connection = factory.newConnection("ordering-drill-setup");
                     Channel channel = connection.createChannel()) {
                    channel.queueDelete(queue);
                    channel.exchangeDelete(exchange);
                }
            }
            case "consume" -> consume(factory, queue, Path.of(args[5]));
            default -> throw new IllegalArgumentException("unknown action " + action);
        }
    }

    static void consume(ConnectionFactory factory, String queue, Path file) throws Exception {
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        CountDownLatch stop = new CountDownLatch(1);
        Connection connection = factory.newConnection("ordering-drill-audit");
        Channel channel = connection.createChannel();
        channel.basicQos(1000);
        // Manual acks after the line is written, and the client's automatic recovery (on by default): a broker that
        // stops and starts (stop-app drill) redelivers what was not acked, and the consumer resumes by itself.
        channel.basicConsume(queue, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws java.io.IOException {
                synchronized (out) {
                    out.printf("%d %s %s %s %b%n", System.currentTimeMillis(), properties.getMessageId(),
                            properties.getCorrelationId(), properties.getType(), envelope.isRedeliver());
                    out.flush();
                }
                getChannel().basicAck(envelope.getDeliveryTag(), false);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                connection.close(2000);
            } catch (Exception ignored) {
                // ending anyway
            }
            synchronized (out) {
                out.flush();
                out.close();
            }
            stop.countDown();
        }));
        System.out.println("consuming " + queue);
        stop.await();
    }

    static volatile boolean cut;
    static final Set<Socket> SOCKETS = ConcurrentHashMap.newKeySet();

    static void proxy(int listenPort, String targetHost, int targetPort, int controlPort) throws Exception {
        ServerSocket control = new ServerSocket(controlPort, 5, InetAddress.getLoopbackAddress());
        Thread controller = new Thread(() -> {
            while (true) {
                try (Socket s = control.accept();
                     BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()));
                     OutputStream out = s.getOutputStream()) {
                    String command = in.readLine();
                    if ("cut".equals(command)) {
                        cut = true;
                        for (Socket socket : SOCKETS) {
                            closeQuietly(socket);
                        }
                        SOCKETS.clear();
                    } else if ("open".equals(command)) {
                        cut = false;
                    }
                    out.write(("ok " + (cut ? "cut" : "open") + "\n").getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    System.err.println("proxy control: " + e);
                }
            }
        }, "control");
        controller.setDaemon(true);
        controller.start();
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
        System.out.println("proxy listening on " + listenPort + " -> " + targetHost + ":" + targetPort);
        while (true) {
            Socket client = server.accept();
            if (cut) {
                closeQuietly(client); // refused, as by a broker that is down
                continue;
            }
            Socket upstream;
            try {
                upstream = new Socket(targetHost, targetPort);
            } catch (IOException e) {
                closeQuietly(client);
                continue;
            }
            SOCKETS.add(client);
            SOCKETS.add(upstream);
            pipe(client, upstream);
            pipe(upstream, client);
        }
    }

    static void pipe(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                SOCKETS.remove(from);
                SOCKETS.remove(to);
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
