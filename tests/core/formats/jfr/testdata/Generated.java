// A workload whose hot code runs in classes the JVM generates at run time: lambdas, dynamic proxies
// (in the caller's package and in a jdk.proxyN module) and reflection accessors. The first argument
// (0-4) is how many throwaway lambdas, proxies and accessors to make first, so two runs number the
// generated classes differently, as two restarts of a real application do; the second, seconds to run.
//
//   java -XX:StartFlightRecording=settings=profile,filename=a.jfr Generated 2 3
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

public class Generated {
  interface Worker {  // package-private: its proxy class lives in this (unnamed) package
    long work(int n);
  }

  public static class Extra {
    public Extra() {}
  }

  static volatile long sink;

  static long spin(int n) {
    long x = n;
    for (int i = 0; i < 20000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  public long reflected(int n) { return spin(n); }

  public Generated() { sink += spin(3); }

  // Each gets a reflection accessor of its own when warmed up.
  public static void extra0() {}
  public static void extra1() {}
  public static void extra2() {}
  public static void extra3() {}

  // What the hot loop calls, made (and warmed past reflection's inflation threshold) before it starts,
  // so that the loop's stacks hold no class generation.
  static Runnable lambda;
  static Supplier<Long> capturing;
  static Worker local;
  static Supplier<Long> modular;
  static Method method;
  static Constructor<Generated> constructor;
  static Generated target;

  @SuppressWarnings("unchecked")
  static void setUp() throws Exception {
    lambda = () -> sink += spin(1);
    capturing = () -> spin(2) + sink;
    local = (Worker) Proxy.newProxyInstance(Generated.class.getClassLoader(), new Class<?>[] {Worker.class},
        (p, m, a) -> spin((Integer) a[0]));
    modular = (Supplier<Long>) Proxy.newProxyInstance(Generated.class.getClassLoader(),
        new Class<?>[] {Supplier.class}, (p, m, a) -> spin(4));
    method = Generated.class.getMethod("reflected", int.class);
    constructor = Generated.class.getConstructor();
    target = new Generated();
    for (int i = 0; i < 20; i++) {
      method.invoke(target, 0);
      constructor.newInstance();
    }
  }

  public static void main(String[] args) throws Exception {
    int shift = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    long seconds = args.length > 1 ? Long.parseLong(args[1]) : 3;
    // Throwaway generated classes: they move the numbers (and addresses) of the ones used below.
    List<Object> keep = new ArrayList<>();
    if (shift > 0) keep.add((IntSupplier) () -> 1);
    if (shift > 1) keep.add((IntSupplier) () -> 2);
    if (shift > 2) keep.add((Runnable) () -> {});
    if (shift > 3) keep.add((Supplier<String>) () -> "");
    for (int i = 0; i < shift; i++) {
      final int k = i;
      keep.add(Proxy.newProxyInstance(Generated.class.getClassLoader(), new Class<?>[] {Runnable.class, IntSupplier.class},
          (p, m, a) -> k));
    }
    for (int i = 0; i < Math.min(shift, 4); i++) {
      Method warm = Generated.class.getMethod("extra" + i);
      for (int j = 0; j < 20; j++) warm.invoke(null);
    }
    Constructor<Extra> extra = Extra.class.getConstructor();
    for (int j = 0; j < (shift > 0 ? 20 : 0); j++) keep.add(extra.newInstance());

    setUp();
    // The hot loop runs on a thread whose Runnable is a lambda: its class is on every stack.
    Thread worker = new Thread(() -> {
      try {
        hot(seconds);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    }, "worker");
    worker.start();
    worker.join();
    System.out.println(sink + keep.size());
  }

  static void hot(long seconds) throws Exception {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 20; i++) {
        lambda.run();
        sink += capturing.get();
        sink += local.work(5);
        sink += modular.get();
        sink += (Long) method.invoke(target, 6);
        sink += constructor.newInstance().hashCode();
      }
    }
  }
}
