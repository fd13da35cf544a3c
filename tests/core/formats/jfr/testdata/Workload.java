// Test workload for the JFR parser tests: CPU work (hashing, sorting), small and large allocations, monitor
// contention, parking and a thread blocked in native code, so one recording holds execution, native-method,
// allocation, monitor-enter and park events with distinct, deterministic stacks.
// Usage: java -XX:StartFlightRecording=... Workload SECONDS [rotate]
// With "rotate", a second recording is started and stopped halfway, which makes the JVM begin a new chunk:
// the dumped file then holds several chunks written by one JVM.
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32;
import jdk.jfr.Recording;

public class Workload {
    static final Object MONITOR = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();
    static volatile Object sink;

    static long checksum(int rounds) {
        CRC32 crc = new CRC32();
        byte[] block = new byte[4096];
        for (int i = 0; i < rounds; i++) { block[i % block.length]++; crc.update(block); }
        return crc.getValue();
    }

    static void sortKeys(int n) {
        Integer[] xs = new Integer[n];
        for (int i = 0; i < n; i++) xs[i] = (i * 7919) % n;
        Arrays.sort(xs, (a, b) -> Integer.compare(b, a));
        sink = xs;
    }

    static void allocate(int n) {
        List<Object> keep = new ArrayList<>();
        for (int i = 0; i < n; i++) keep.add(new byte[512 + (i % 5) * 256]);
        keep.add(new long[64 * 1024]);  // too large for a TLAB: an outside-TLAB allocation
        sink = keep;
    }

    static void holdMonitor() throws InterruptedException {
        synchronized (MONITOR) { Thread.sleep(2); }
    }

    static void holdLock() throws InterruptedException {
        LOCK.lock();
        try { Thread.sleep(2); } finally { LOCK.unlock(); }
    }

    interface Job { void run() throws Exception; }

    static Thread worker(String name, long deadline, Job job) {
        Thread t = new Thread(() -> {
            try { while (System.nanoTime() < deadline) job.run(); } catch (Exception e) { throw new RuntimeException(e); }
        }, name);
        t.start();
        return t;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        ServerSocket server = new ServerSocket(0);
        Thread blocked = new Thread(() -> { try { server.accept(); } catch (Exception e) { } }, "native-waiter");
        blocked.setDaemon(true);
        blocked.start();
        List<Thread> threads = new ArrayList<>();
        threads.add(worker("crc-worker", deadline, () -> { checksum(150000); holdMonitor(); holdLock(); }));
        threads.add(worker("sort-worker", deadline, () -> { sortKeys(100000); holdMonitor(); holdLock(); }));
        threads.add(worker("alloc-worker", deadline, () -> { allocate(400); holdMonitor(); holdLock(); }));
        if (args.length > 1 && args[1].equals("rotate")) {
            Thread.sleep((long) (seconds * 500));
            try (Recording r = new Recording()) { r.start(); Thread.sleep(100); r.stop(); }
        }
        for (Thread t : threads) t.join();
        server.close();
    }
}
