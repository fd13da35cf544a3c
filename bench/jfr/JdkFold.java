// The JDK's own JFR reader, for comparison with jfr_bench: reads a recording with
// jdk.jfr.consumer.RecordingFile and folds the stacks of the profiling events (the same event types
// proflow converts) into per-type "frame;frame;... -> count" maps. Prints MB/s of the best iteration.
// Usage: java JdkFold FILE [ITERATIONS]
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

public class JdkFold {
    static final Set<String> TYPES = Set.of("jdk.ExecutionSample", "jdk.NativeMethodSample",
        "jdk.ObjectAllocationSample", "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB",
        "jdk.JavaMonitorEnter", "jdk.ThreadPark");

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        long size = Files.size(file);
        // CPU time of the reading thread, next to wall time, because the machine may be shared.
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double best = Double.MAX_VALUE, bestCpu = Double.MAX_VALUE;
        long events = 0, stacks = 0;
        for (int it = 0; it < iterations; it++) {
            long t0 = System.nanoTime();
            long c0 = mx.getCurrentThreadCpuTime();
            Map<String, Map<String, Long>> folded = new HashMap<>();
            events = 0;
            try (RecordingFile rf = new RecordingFile(file)) {
                while (rf.hasMoreEvents()) {
                    RecordedEvent e = rf.readEvent();
                    String type = e.getEventType().getName();
                    if (!TYPES.contains(type)) continue;
                    events++;
                    StringBuilder sb = new StringBuilder();
                    RecordedStackTrace st = e.getStackTrace();
                    if (st != null) {
                        List<RecordedFrame> frames = st.getFrames();
                        for (int i = frames.size() - 1; i >= 0; i--) {
                            RecordedFrame f = frames.get(i);
                            if (sb.length() > 0) sb.append(';');
                            sb.append(f.getMethod().getType().getName()).append('.').append(f.getMethod().getName());
                        }
                    }
                    folded.computeIfAbsent(type, k -> new HashMap<>()).merge(sb.toString(), 1L, Long::sum);
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            best = Math.min(best, s);
            bestCpu = Math.min(bestCpu, (mx.getCurrentThreadCpuTime() - c0) / 1e9);
            Map<String, Long> cpu = folded.get("jdk.ExecutionSample");
            stacks = cpu == null ? 0 : cpu.size();
        }
        System.out.printf("jdk: %d bytes, %d events, %d cpu stacks, best wall %.4f s = %.1f MB/s, best cpu %.4f s = %.1f MB/s%n",
            size, events, stacks, best, size / best / 1e6, bestCpu, size / bestCpu / 1e6);
    }
}
