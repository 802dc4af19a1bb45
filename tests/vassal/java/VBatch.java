// One JVM for many real-VASSAL runs of the tests (tests/vassal/vassal_jvm.py starts one per
// test process and keeps it for the session): each run is the shared checker's VCheck, or
// VPlay beside it, called with the same arguments as a JVM of its own would be, on a module
// and its saves.
//
// VASSAL is made for one module per JVM: GameModule is a singleton that is never unloaded,
// and maps, prototypes, translations, the image cache, the logging context and the checker's
// own problem list are static. So every run gets a class loader of its own over VASSAL, the
// checker and every library jar (its parent is the platform loader: only the JDK is shared),
// and with it fresh copies of all of VASSAL's static state; nothing of one module can be read
// by the next. Each run also gets a new VASSAL configuration folder (user.home, VASSAL.conf)
// and its own output files, as a separate JVM would. What the runs share is the JVM itself,
// the JDK's classes and compiled code, AWT under one Xvfb: that is the cost saved (a JVM and
// Xvfb start, AWT and Swing initialised) of about 40 runs a test session.
//
// The checker ends a run with Runtime.halt / System.exit; a security manager turns that into
// an exception carrying the status, so the JVM lives on. After a run its dialog watchdog is
// stopped, its windows disposed, its other threads ended and its listeners on the JDK's drag
// source removed, and its loader closed: nothing of it is then held but by soft references
// (VASSAL's and the JDK's caches), which the JVM's options clear at the next collection
// (tests/vassal/vassal_jvm.py, RUN_HEAP).
//
// Protocol, one line each way (UTF-8, tab-separated), a run at a time:
//   in:  CLASS <tab> OUT <tab> CONF <tab> ARG...   (CLASS: VCheck or VPlay; OUT: the run's
//        standard output, OUT.stderr its standard error; CONF: a new folder for VASSAL's
//        configuration)
//   out: DONE <tab> STATUS <tab> HEAP_MB <tab> CPU_MS  (STATUS: the run's exit status, or 2
//        and its exception in OUT.stderr when it ended without one; HEAP_MB: heap in use
//        after the run, so the caller can start a fresh JVM when leaked runs pile up; CPU_MS:
//        the JVM's CPU time so far, user and system, so the caller can count a run's share)
// Usage: VBatch CLASSPATH   (the runs' class path, path-separated; VBatch itself is not on it)
import java.awt.EventQueue;
import java.awt.Window;
import java.io.*;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.Permission;
import java.util.*;

public class VBatch {
  /** Thrown instead of ending the JVM when a run calls System.exit or Runtime.halt. */
  static final class Exit extends SecurityException {
    final int status;

    Exit(int status) {
      super("exit " + status);
      this.status = status;
    }
  }

  static volatile boolean leaving = false;

  public static void main(String[] a) throws Exception {
    final List<URL> urls = new ArrayList<>();
    for (final String p : a[0].split(File.pathSeparator)) {
      if (!p.isEmpty()) urls.add(Paths.get(p).toUri().toURL());
    }
    final PrintStream reply = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    final PrintStream err = System.err;
    System.setSecurityManager(new SecurityManager() {
      @Override
      public void checkPermission(Permission p) { }

      @Override
      public void checkPermission(Permission p, Object context) { }

      @Override
      public void checkExit(int status) {
        // JFrame.setDefaultCloseOperation(EXIT_ON_CLOSE) asks too: only an exit is stopped
        if (!leaving && StackWalker.getInstance().walk(s -> s.anyMatch(VBatch::ending))) {
          throw new Exit(status);
        }
      }
    });
    // AWT's event queue (and its dispatch thread) made now, while the context class loader is
    // the JDK's: made in the first run, it would keep that run's loader for good (EventQueue
    // records its maker's loader and gives it to every dispatch thread it starts)
    Thread.currentThread().setContextClassLoader(null);
    EventQueue.invokeAndWait(() -> { });
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      final String[] f = line.split("\t", -1);
      final int status = run(urls.toArray(new URL[0]), f[0], Path.of(f[1]), Path.of(f[2]),
        Arrays.copyOfRange(f, 3, f.length), err);
      System.gc();
      final Runtime rt = Runtime.getRuntime();
      final long cpu = ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
      reply.println("DONE\t" + status + "\t" + (rt.totalMemory() - rt.freeMemory()) / (1 << 20)
        + "\t" + cpu / 1_000_000);
    }
    leaving = true;
    Runtime.getRuntime().halt(0);
  }

  static boolean ending(StackWalker.StackFrame f) {
    return f.getClassName().equals("java.lang.Runtime")
      && (f.getMethodName().equals("exit") || f.getMethodName().equals("halt"));
  }

  static int run(URL[] urls, String cls, Path out, Path conf, String[] args, PrintStream err) {
    int status = 2;
    try (PrintStream o = new PrintStream(new FileOutputStream(out.toFile()), true, "UTF-8");
         PrintStream e = new PrintStream(new FileOutputStream(out + ".stderr"), true, "UTF-8");
         URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      Files.createDirectories(conf);
      System.setProperty("user.home", conf.toString());
      System.setProperty("VASSAL.conf", conf.resolve("vassal").toString());
      System.setOut(o);
      System.setErr(e);
      Thread.currentThread().setContextClassLoader(loader);
      EventQueue.invokeAndWait(() -> Thread.currentThread().setContextClassLoader(loader));
      try {
        loader.loadClass(cls).getMethod("main", String[].class).invoke(null, (Object) args);
        e.println("VBatch: " + cls + ".main returned without an exit status");
      }
      catch (InvocationTargetException t) {
        final Throwable c = t.getCause();
        if (c instanceof Exit) status = ((Exit) c).status;
        else c.printStackTrace(e);
      }
      finally {
        cleanUp(loader, err);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.out), true));
        System.setErr(err);
        Thread.setDefaultUncaughtExceptionHandler(null);
        Thread.currentThread().setContextClassLoader(null);
        EventQueue.invokeAndWait(() -> Thread.currentThread().setContextClassLoader(null));
      }
    }
    catch (Throwable t) {
      t.printStackTrace(err);
    }
    return status;
  }

  /** Stops what a run left behind that could act in the next: the checker's dialog watchdog
   *  (it would close the next run's dialogs and record them as its own) and every window;
   *  and every other thread of a class of the run's own loader (Batik's CleanerThread, one a
   *  run, which never ends by itself): a live thread keeps its class, and with it the run's
   *  loader and everything the run made (the heap grew by 70-90 MB a run). */
  @SuppressWarnings("removal")
  static void cleanUp(ClassLoader loader, PrintStream err) {
    for (final Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getClass().getClassLoader() == loader && !t.getName().equals("dialog-watchdog")) {
        err.println("VBatch: stopping the run's thread " + t.getName());
        t.setUncaughtExceptionHandler((th, ex) -> { });  // its end is not the run's problem
        t.stop();  // Java 17 still ends a thread so (Batik's ignores an interrupt)
      }
      else if (t.getContextClassLoader() == loader) {
        t.setContextClassLoader(null);  // a JDK thread the run started (Swing's TimerQueue)
      }
      if (t.getName().equals("dialog-watchdog")) {
        t.interrupt();
        try {
          t.join(2000);
        }
        catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }
    }
    // the JDK's own drag source outlives the run: its listeners from the run's classes go
    final java.awt.dnd.DragSource drag = java.awt.dnd.DragSource.getDefaultDragSource();
    for (final java.awt.dnd.DragSourceMotionListener l : drag.getDragSourceMotionListeners()) {
      if (l.getClass().getClassLoader() == loader) drag.removeDragSourceMotionListener(l);
    }
    for (final java.awt.dnd.DragSourceListener l : drag.getDragSourceListeners()) {
      if (l.getClass().getClassLoader() == loader) drag.removeDragSourceListener(l);
    }
    try {
      EventQueue.invokeAndWait(() -> {
        for (final Window w : Window.getWindows()) w.dispose();
      });
    }
    catch (Exception ex) {
      ex.printStackTrace(System.err);
    }
  }
}
