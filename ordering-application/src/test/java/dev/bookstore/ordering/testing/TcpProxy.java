package dev.bookstore.ordering.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy for tests that simulate network trouble between the service and a server (RabbitMQ, a database)
 * without ever stopping that server. Plain Java, no dependencies, so every module's tests can use it.
 *
 * <pre>{@code
 * try (TcpProxy proxy = new TcpProxy("127.0.0.1", 5672).start()) {
 *     connect to 127.0.0.1:proxy.port() ...
 *     proxy.cut();      // live connections are closed, new ones are refused: "the broker is down"
 *     proxy.restore();  // accepts and forwards again, on the same port
 * }
 * }</pre>
 *
 * <p>{@link #stall()} / {@link #resume()} simulate the other kind of outage: connections stay open but no byte
 * moves, like a network partition without resets, so that a client sees time-outs rather than errors.
 *
 * <p>{@link #freeze()} simulates a half-open connection: the connections open now stop moving bytes for good, as
 * when a firewall or NAT dropped their state, while new connections work.
 *
 * <p>The proxy listens on an ephemeral port of {@code 127.0.0.1} only. Each connection uses two daemon threads
 * (one per direction); this is a test tool for a handful of connections, not a production proxy.
 */
public final class TcpProxy implements AutoCloseable {

    private static final int BUFFER_SIZE = 16 * 1024;

    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> liveSockets = ConcurrentHashMap.newKeySet();
    private final Set<Socket> frozenSockets = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flowing = lock.newCondition();

    private volatile ServerSocket server;
    private Thread acceptor;
    private volatile int port;
    private volatile boolean stalled;
    private volatile boolean closed;

    public TcpProxy(String targetHost, int targetPort) {
        this.targetHost = Objects.requireNonNull(targetHost, "targetHost");
        if (targetPort < 1 || targetPort > 65_535) {
            throw new IllegalArgumentException("targetPort out of range: " + targetPort);
        }
        this.targetPort = targetPort;
    }

    /** Starts listening on an ephemeral port of 127.0.0.1; see {@link #port()}. */
    public TcpProxy start() {
        lock.lock();
        try {
            if (server != null) {
                throw new IllegalStateException("already started");
            }
            listen(0);
            return this;
        } finally {
            lock.unlock();
        }
    }

    /** The port that clients connect to; stays the same across {@link #cut()} and {@link #restore()}. */
    public int port() {
        if (port == 0) {
            throw new IllegalStateException("not started");
        }
        return port;
    }

    /**
     * Closes every live connection (both sides) and stops listening, so that new connections are refused, as if
     * the server went down. Idempotent.
     */
    public void cut() {
        Thread stoppedAcceptor;
        lock.lock();
        try {
            closeQuietly(server);
            server = null;
            stoppedAcceptor = acceptor;
            acceptor = null;
            liveSockets.forEach(TcpProxy::closeQuietly);
            liveSockets.clear();
            flowing.signalAll();
        } finally {
            lock.unlock();
        }
        // The JDK defers closing a listening socket's descriptor until the thread blocked in accept() has
        // left it; until then the kernel still completes new connections. Wait, so that "cut" means refused.
        if (stoppedAcceptor != null && stoppedAcceptor != Thread.currentThread()) {
            try {
                stoppedAcceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Listens again on the same port after {@link #cut()}, and lets stalled bytes flow again. Idempotent. */
    public void restore() {
        lock.lock();
        try {
            ensureOpen();
            if (server == null) {
                listen(port());
            }
            stalled = false;
            flowing.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Keeps every connection open but stops forwarding bytes in both directions until {@link #resume()}: the
     * client's requests and the server's answers wait inside the proxy, as in a network partition.
     */
    public void stall() {
        lock.lock();
        try {
            ensureOpen();
            stalled = true;
        } finally {
            lock.unlock();
        }
    }

    /** Forwards the bytes held back since {@link #stall()} and everything after them. */
    public void resume() {
        lock.lock();
        try {
            stalled = false;
            flowing.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops every connection open now from moving bytes, in both directions, until it is closed; connections opened
     * later are forwarded as usual. Neither side is told: the client's requests wait unanswered.
     */
    public void freeze() {
        frozenSockets.addAll(liveSockets);
    }

    /** How many client connections are open through the proxy right now. */
    public int liveConnections() {
        return liveSockets.size() / 2;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
        cut();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("proxy closed");
        }
    }

    private void listen(int requestedPort) {
        try {
            ServerSocket socket = new ServerSocket();
            // the same port is bound again after a cut, while closed connections may still be in TIME_WAIT
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), requestedPort));
            server = socket;
            port = socket.getLocalPort();
            acceptor = new Thread(() -> acceptLoop(socket), "tcp-proxy-accept-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + requestedPort, e);
        }
    }

    private void acceptLoop(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // closed by cut() or close()
            }
            connect(socket, client);
        }
    }

    private void connect(ServerSocket acceptedBy, Socket client) {
        Socket upstream = new Socket();
        try {
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        lock.lock();
        try {
            if (acceptedBy != server) { // cut while this connection was being opened
                closeQuietly(client);
                closeQuietly(upstream);
                return;
            }
            liveSockets.add(client);
            liveSockets.add(upstream);
        } finally {
            lock.unlock();
        }
        pump(client, upstream, "up");
        pump(upstream, client, "down");
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[BUFFER_SIZE];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (!awaitFlowing(from)) {
                        break;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away; the finally block closes the other
            } finally {
                liveSockets.remove(from);
                liveSockets.remove(to);
                frozenSockets.remove(from);
                frozenSockets.remove(to);
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-" + direction + "-" + from.getPort());
        thread.setDaemon(true);
        thread.start();
    }

    /** Blocks while stalled; false when the connection was cut meanwhile. */
    private boolean awaitFlowing(Socket from) {
        lock.lock();
        try {
            while ((stalled || frozenSockets.contains(from)) && !from.isClosed()) {
                flowing.awaitUninterruptibly();
            }
            return !from.isClosed();
        } finally {
            lock.unlock();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing is best effort
        }
    }
}
