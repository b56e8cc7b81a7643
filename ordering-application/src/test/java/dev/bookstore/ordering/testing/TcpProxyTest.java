package dev.bookstore.ordering.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

    private static final int READ_TIMEOUT_MS = 5_000;

    private EchoServer echo;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerBehindProxy() throws IOException {
        echo = new EchoServer();
        proxy = new TcpProxy("127.0.0.1", echo.port()).start();
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void forwardsBytesBothWays() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "hello")).isEqualTo("hello");
            assertThat(roundTrip(client, "again")).isEqualTo("again");
        }
        assertThat(proxy.port()).isNotEqualTo(echo.port());
    }

    @Test
    void cutClosesLiveConnectionsAndRefusesNewOnes() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "before")).isEqualTo("before");

            proxy.cut();

            assertThat(readOrEndOfStream(client)).isEqualTo(-1);
            assertThatThrownBy(this::connect).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void restoreAcceptsConnectionsAgainOnTheSamePort() throws IOException {
        int port = proxy.port();
        proxy.cut();
        assertThatThrownBy(this::connect).isInstanceOf(ConnectException.class);

        proxy.restore();

        assertThat(proxy.port()).isEqualTo(port);
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "after")).isEqualTo("after");
        }
    }

    @Test
    void stallHoldsBytesBackUntilResume() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "flowing")).isEqualTo("flowing");

            proxy.stall();
            client.getOutputStream().write("held".getBytes(StandardCharsets.US_ASCII));
            client.setSoTimeout(300);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

            proxy.resume();
            client.setSoTimeout(READ_TIMEOUT_MS);
            assertThat(new String(client.getInputStream().readNBytes(4), StandardCharsets.US_ASCII))
                    .isEqualTo("held");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port()), READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        return socket;
    }

    private static String roundTrip(Socket client, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        client.getOutputStream().write(bytes);
        client.getOutputStream().flush();
        return new String(client.getInputStream().readNBytes(bytes.length), StandardCharsets.US_ASCII);
    }

    private static int readOrEndOfStream(Socket client) {
        try {
            return client.getInputStream().read();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the cut connection stayed open", e);
        } catch (IOException e) {
            return -1; // a reset is as good as an end of stream here
        }
    }

    /** Echoes every byte back, one thread per connection. */
    private static final class EchoServer implements AutoCloseable {

        private final ServerSocket server;

        EchoServer() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::acceptLoop, "echo-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void acceptLoop() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread echoer = new Thread(() -> echo(socket), "echo");
                    echoer.setDaemon(true);
                    echoer.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void echo(Socket socket) {
            try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
