package dev.stoker.memory;

import java.util.zip.Adler32;

/**
 * The JVM's report of a read from a memory-mapped file that was cut short under the map, and how
 * a reader catches it where it can name the file.
 *
 * <p>A read past the new end of a truncated file raises {@code SIGBUS}. In Java code (a segment's
 * {@code get}, a {@code copy}, {@code toArray}) the JVM turns it into an {@link InternalError}
 * ("a fault occurred in an unsafe memory access operation"); in native code (a JNI or FFM library
 * handed the mapped bytes: a JPEG decoder, a decompressor, a GPU copy) it kills the JVM. So
 * mapped bytes go to native code only as a copy made in Java, and each Java read of a map sits in
 * a {@code try} that names the file.
 *
 * <p>Once the JIT has compiled the read, the JVM no longer throws at the read: it lets the
 * compiled code run on and throws the error at the thread's next safepoint poll ("... in a
 * recent unsafe memory access operation in compiled Java code"), which may come after the
 * {@code try} has ended. {@link #deliverPendingFault()}, called last inside the {@code try},
 * makes that poll happen there:
 *
 * <pre>{@code
 * try {
 *     byte[] member = slice.toArray(ValueLayout.JAVA_BYTE);
 *     MappedReads.deliverPendingFault();
 *     return member;
 * } catch (InternalError e) {
 *     if (!MappedReads.isFault(e)) throw e;
 *     throw new MappedDataChangedError(file + " was cut short while it was mapped ...", e);
 * }
 * }</pre>
 */
public final class MappedReads {
    private MappedReads() {
    }

    /**
     * Whether {@code error} is the JVM's report of a fault in a memory access to a map (JDK 25:
     * "a fault occurred in an unsafe memory access operation", or "... in a recent unsafe memory
     * access operation in compiled Java code" when compiled code let it surface after the access).
     */
    public static boolean isFault(Throwable error) {
        return error instanceof InternalError && error.getMessage() != null
                && error.getMessage().contains("unsafe memory access");
    }

    /**
     * Throws here, as an {@link InternalError}, a map fault that compiled code met earlier on this
     * thread and has not reported yet; does nothing otherwise. A call into native code, whose
     * return the JVM always checks for such pending errors: a few tens of nanoseconds, once per
     * sample or batch read, never per element.
     */
    public static void deliverPendingFault() {
        // Why a JNI method: the JVM delivers a deferred fault at the thread's next safepoint poll,
        // and the return from a JNI call always polls, where a Java call may be inlined and a
        // short loop's poll removed. Adler32's one-int update is a plain JNI call (no intrinsic),
        // with no lock and no system call. An FFM downcall is not used: core holds no native
        // access, and an FFM downcall's return is not documented to deliver such errors.
        new Adler32().update(0);
    }
}
