package dev.stoker.micrometer;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A small HTTP/1.1 server for one kind of request, built so that no client can hold up another:
 * every connection is served on a virtual thread of its own, its request head must arrive within
 * {@link #HEAD_TIMEOUT} and be at most {@link #MAX_HEAD_BYTES}, and the whole exchange must end
 * within {@link #EXCHANGE_TIMEOUT} or the connection is closed (a client that stops reading the
 * answer included). At most {@link #MAX_CONNECTIONS} connections are served at once; when that many
 * are open, a new one closes the oldest still sending its request, so clients that open
 * connections and send nothing cannot lock out the scraper. One request per connection
 * ({@code Connection: close}), which is what a scrape every few seconds needs.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: it reads a request's head on the executor
 * that runs its handlers, with no read timeout unless the JVM-wide properties
 * {@code sun.net.httpserver.maxReqTime}/{@code maxRspTime} are set before the class loads; with its
 * default executor (the dispatcher thread itself) one client that sends half a request stops every
 * scrape. Prometheus' own {@code HTTPServer} (prometheus-metrics-exporter-httpserver 1.10.0) is that
 * same server on a pool of 10 threads: ten clients that each send half a request hold all ten, and
 * scrapes queue behind them until the JVM-wide {@code maxReqTime} it sets from a static initializer
 * (60 s, for every JDK server in the process) ends them; it binds every interface by default and
 * would pin a second prometheus-metrics version beside Micrometer's. This server does the one thing
 * needed, with bounds that belong to it and no setting of the JVM's.
 */
final class ScrapeServer implements AutoCloseable {
    /** How long a client has to send its request line and headers. */
    static final Duration HEAD_TIMEOUT = Duration.ofSeconds(10);
    /** How long one connection may last, answer included. */
    static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(30);
    /** The largest request head read; a larger one is answered 431. */
    static final int MAX_HEAD_BYTES = 16 * 1024;
    /** Connections served at once. */
    static final int MAX_CONNECTIONS = 32;

    /** The bounds a server keeps; tests shorten them. */
    record Limits(Duration head, Duration exchange, int connections) {
        static final Limits DEFAULT = new Limits(HEAD_TIMEOUT, EXCHANGE_TIMEOUT, MAX_CONNECTIONS);
    }

    /** What the server answers. */
    record Response(int status, String reason, String type, byte[] body, Map<String, String> headers) {
    }

    private final ServerSocket socket;
    private final Function<RequestHead, Response> handler;
    private final Limits limits;
    private final ScheduledThreadPoolExecutor deadlines;
    /** Every open connection; the ones still sending their head are also in {@link #waiting}, oldest first. */
    private final Set<Socket> open = new LinkedHashSet<>();
    private final Set<Socket> waiting = new LinkedHashSet<>();
    private volatile boolean closed;

    private ScrapeServer(ServerSocket socket, Function<RequestHead, Response> handler, Limits limits) {
        this.socket = socket;
        this.handler = handler;
        this.limits = limits;
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "stoker-metrics-deadlines");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true); // a connection that ended in time leaves nothing queued
        this.deadlines = timer;
    }

    /**
     * Binds {@code address} and starts accepting on a daemon thread.
     *
     * @throws UncheckedIOException when the address cannot be bound
     */
    static ScrapeServer start(InetSocketAddress address, Function<RequestHead, Response> handler) {
        return start(address, handler, Limits.DEFAULT);
    }

    /** As {@link #start(InetSocketAddress, Function)}, within {@code limits}. */
    static ScrapeServer start(InetSocketAddress address, Function<RequestHead, Response> handler, Limits limits) {
        ServerSocket socket;
        try {
            socket = new ServerSocket();
            try {
                socket.setReuseAddress(true);
                socket.bind(address, 64);
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics at " + address + ": " + e.getMessage(), e);
        }
        ScrapeServer server = new ScrapeServer(socket, handler, limits);
        Thread accept = new Thread(server::acceptLoop, "stoker-metrics-" + socket.getLocalPort());
        accept.setDaemon(true); // a job that forgets to close the endpoint still exits
        accept.start();
        return server;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** How many connections are open now. */
    int openConnections() {
        synchronized (open) {
            return open.size();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue; // one failed accept (the client reset first): the next one
            }
            if (admit(client)) {
                ScheduledFuture<?> deadline = deadlines.schedule(() -> closeQuietly(client),
                        limits.exchange().toMillis(), TimeUnit.MILLISECONDS);
                Thread.ofVirtual().name("stoker-metrics-connection").start(() -> {
                    try {
                        serve(client);
                    } finally {
                        deadline.cancel(false);
                    }
                });
            }
        }
    }

    /** Takes a connection in, closing the oldest one still sending its head when all slots are taken. */
    private boolean admit(Socket client) {
        Socket evicted = null;
        synchronized (open) {
            if (closed) {
                closeQuietly(client);
                return false;
            }
            if (open.size() >= limits.connections()) {
                if (waiting.isEmpty()) {
                    closeQuietly(client); // every slot is answering: the client tries again
                    return false;
                }
                evicted = waiting.iterator().next();
                waiting.remove(evicted);
                open.remove(evicted);
            }
            open.add(client);
            waiting.add(client);
        }
        if (evicted != null) {
            closeQuietly(evicted);
        }
        return true;
    }

    private void serve(Socket client) {
        try (client) {
            long deadline = System.nanoTime() + limits.head().toNanos();
            InputStream in = new BufferedInputStream(client.getInputStream(), 2048);
            byte[] head = new byte[MAX_HEAD_BYTES];
            int length = readHead(client, in, head, deadline);
            synchronized (open) {
                waiting.remove(client);
            }
            Optional<RequestHead> request = length < 0 ? Optional.empty() : RequestHead.parse(head, length);
            Response response;
            if (length < 0) {
                response = text(431, "Request Header Fields Too Large", "the request head is over "
                        + MAX_HEAD_BYTES + " bytes\n");
            } else if (request.isEmpty()) {
                response = text(400, "Bad Request", "not an HTTP/1.x request\n");
            } else {
                response = handler.apply(request.get());
            }
            write(client, response, request.isPresent() && request.get().method().equals("HEAD"));
            drain(client, in);
        } catch (IOException e) {
            // the client went away, or was too slow and was closed: nothing to answer
        } finally {
            synchronized (open) {
                open.remove(client);
                waiting.remove(client);
            }
        }
    }

    /**
     * Reads the request head (through its empty line) into {@code head}; returns its length, or -1
     * when it does not fit. Reads at most up to the end of the head, so a body stays unread.
     *
     * @throws SocketTimeoutException when the deadline passes first
     */
    private static int readHead(Socket client, InputStream in, byte[] head, long deadline) throws IOException {
        int n = 0;
        while (n < head.length) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("the request head took too long");
            }
            client.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            int b = in.read();
            if (b < 0) {
                throw new IOException("the client closed before its request ended");
            }
            head[n++] = (byte) b;
            if (b == '\n' && (n >= 2 && head[n - 2] == '\n' || n >= 3 && head[n - 2] == '\r' && head[n - 3] == '\n')) {
                return n;
            }
        }
        return -1;
    }

    /** Writes the answer; to a {@code HEAD} request, its head alone (with the body's length). */
    private static void write(Socket client, Response r, boolean headOnly) throws IOException {
        StringBuilder head = new StringBuilder(256);
        head.append("HTTP/1.1 ").append(r.status()).append(' ').append(r.reason()).append("\r\n");
        head.append("Content-Type: ").append(r.type()).append("\r\n");
        head.append("Content-Length: ").append(r.body().length).append("\r\n");
        for (Map.Entry<String, String> e : r.headers().entrySet()) {
            head.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        OutputStream out = client.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!headOnly) {
            out.write(r.body());
        }
        out.flush();
    }

    /**
     * Half-closes and reads what the client still sends (a request body, its own close) for a
     * moment before closing: closing with unread bytes would reset the connection, and the client
     * could lose the answer.
     */
    private static void drain(Socket client, InputStream in) throws IOException {
        client.shutdownOutput();
        client.setSoTimeout(1000);
        byte[] skip = new byte[4096];
        int total = 0;
        try {
            for (int n; total < (1 << 16) && (n = in.read(skip)) >= 0; ) {
                total += n;
            }
        } catch (SocketTimeoutException e) {
            // the client keeps its side open: close ours
        }
    }

    static Response text(int status, String reason, String body) {
        return new Response(status, reason, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8),
                Map.of());
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing to free the slot; nothing else to do
        }
    }

    /** Stops accepting and closes every connection, an answer being written included. */
    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        List<Socket> all;
        synchronized (open) {
            all = new ArrayList<>(open);
            open.clear();
            waiting.clear();
        }
        all.forEach(ScrapeServer::closeQuietly);
        deadlines.shutdownNow();
    }
}
