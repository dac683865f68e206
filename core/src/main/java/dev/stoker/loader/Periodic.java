package dev.stoker.loader;

import dev.stoker.loader.engine.LoaderSettings;
import java.util.function.Supplier;

/**
 * A loader's work that comes round as batches are received: a state every {@code snapshotEvery}
 * batches (kept for {@code lastSnapshot()} and given to the listener) and a profile window every
 * {@code profileEvery}. Called in the consumer's thread; the snapshot is taken under the
 * loader's lock, the profile window's bookkeeping is the consumer's alone.
 */
final class Periodic {
    private final LoaderSettings settings;
    private final Object lock;
    private final Supplier<LoaderState> state;
    private final Supplier<LoaderProfile> profile;
    /** Batches the consumer has received from this loader, for {@code snapshotEvery}; guarded by {@link #lock}. */
    private long received;
    private volatile LoaderState lastSnapshot;
    /** The profile at the start of the current {@code profileEvery} window; consumer's thread only. */
    private LoaderProfile lastWindow;
    private long lastWindowAt;

    Periodic(LoaderSettings settings, Object lock, Supplier<LoaderState> state, Supplier<LoaderProfile> profile) {
        this.settings = settings;
        this.lock = lock;
        this.state = state;
        this.profile = profile;
    }

    /** The last snapshot taken, or null. */
    LoaderState lastSnapshot() {
        return lastSnapshot;
    }

    /** The consumer received a batch (or its error): takes a snapshot and a profile when due. */
    void received() {
        if (settings.profileEvery() != null) {
            profileWhenDue();
        }
        long every = settings.snapshotEvery();
        if (every == 0) {
            return;
        }
        LoaderState snapshot;
        synchronized (lock) {
            if (++received % every != 0) {
                return;
            }
            snapshot = state.get();
            lastSnapshot = snapshot;
        }
        if (settings.onSnapshot() != null) {
            settings.onSnapshot().accept(snapshot);
        }
    }

    /** Hands the last window's profile to the sink once {@code profileEvery} has passed since the last one. */
    private void profileWhenDue() {
        long now = System.nanoTime();
        if (lastWindow == null) {
            lastWindow = profile.get(); // the first batch opens the first window
            lastWindowAt = now;
            return;
        }
        if (now - lastWindowAt < settings.profileEvery().toNanos()) {
            return;
        }
        LoaderProfile p = profile.get();
        LoaderProfile window = p.since(lastWindow);
        lastWindow = p;
        lastWindowAt = now;
        settings.onProfile().accept(window);
    }
}
