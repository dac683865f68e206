package dev.stoker.loader.engine;

import dev.stoker.collate.Collate;
import dev.stoker.data.Dataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.loader.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The collate path of a map-style dataset: the samples of a batch fetched, then collated into
 * the batch's memory ({@link BatchMaker#collated}).
 *
 * <p>When the dataset keeps {@link Dataset#getBatch}'s default (a loop over {@code get}), the
 * loop runs here instead ({@code perSample}), so that a failing {@code get} is named by its index.
 * A dataset with its own {@code getBatch} is called once per batch, as PyTorch calls
 * {@code __getitems__}; under {@link SamplePolicy#SKIP}, when that call fails, the batch is
 * fetched again sample by sample to find the bad ones.
 */
record SampleFetch<T>(Dataset<T> dataset, Collate<T> collate, boolean perSample) implements MapRecipe<T> {

    @Override
    public boolean sharesSamples(BatchMaker maker) {
        return perSample && maker.skips() == null;
    }

    @Override
    public Optional<SampleLayout> fillLayout() {
        return Optional.empty();
    }

    @Override
    public Batch make(BatchMaker maker, long epoch, long k, long[] indices, BatchHelp help) {
        long start = System.nanoTime();
        if (maker.skips() != null) {
            Fetched<T> fetched = fetchSkipping(maker, epoch, k, indices);
            if (fetched.samples().isEmpty()) {
                return null;
            }
            return maker.collated(collate, epoch, k, fetched.indices(), fetched.samples(), start);
        }
        List<T> samples = fetch(maker, epoch, k, indices, help);
        return maker.collated(collate, epoch, k, indices, samples, start);
    }

    /** The samples fetched and their indices, the skipped ones left out. */
    private record Fetched<T>(long[] indices, List<T> samples) {}

    private List<T> fetch(BatchMaker maker, long epoch, long k, long[] indices, BatchHelp help) {
        if (perSample) {
            List<T> samples = new ArrayList<>(indices.length);
            int shared = 0;
            if (help.isOpen()) { // a lane's first batch: one volatile read for every other
                @SuppressWarnings("unchecked")
                T[] fetched = (T[]) new Object[indices.length];
                try {
                    shared = help.share(indices.length, j -> fetched[j] = dataset.get(indices[j]));
                } catch (SharedSamples.Failed f) {
                    throw maker.failure("fetching sample " + indices[f.j] + " for", epoch, k, indices, indices[f.j],
                            f.getCause());
                }
                for (int j = 0; j < shared; j++) {
                    samples.add(fetched[j]);
                }
            }
            for (int j = shared; j < indices.length; j++) {
                long i = indices[j];
                try {
                    samples.add(dataset.get(i));
                } catch (RuntimeException | Error e) { // an Error too: the report names the sample
                    throw maker.failure("fetching sample " + i + " for", epoch, k, indices, i, e);
                }
            }
            return samples;
        }
        List<T> samples;
        try {
            samples = dataset.getBatch(indices.clone()); // a copy: the batch keeps the original
        } catch (RuntimeException | Error e) {
            throw maker.failure("fetching the samples of", epoch, k, indices, -1, e);
        }
        if (samples == null || samples.size() != indices.length) {
            String got = samples == null ? "null" : samples.size() + " samples";
            throw maker.failure("fetching the samples of", epoch, k, indices, -1,
                    new IllegalStateException("getBatch returned " + got + " for " + indices.length + " indices"));
        }
        return samples;
    }

    /**
     * The fetch under {@link SamplePolicy#SKIP}: a batched {@code getBatch} first when the dataset
     * has one; when that fails (or returns the wrong number), sample by sample with {@code get},
     * leaving out those that throw.
     */
    private Fetched<T> fetchSkipping(BatchMaker maker, long epoch, long k, long[] indices) {
        if (!perSample) {
            try {
                List<T> samples = dataset.getBatch(indices.clone());
                if (samples != null && samples.size() == indices.length) {
                    return new Fetched<>(indices, samples);
                }
            } catch (Error e) { // not a bad sample: reported at its batch, never skipped
                throw maker.failure("fetching the samples of", epoch, k, indices, -1, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) { // the pass is closing: not a bad sample
                    throw maker.failure("fetching the samples of", epoch, k, indices, -1, e);
                }
                // some sample is bad: find it below
            }
        }
        List<T> samples = new ArrayList<>(indices.length);
        long[] kept = new long[indices.length];
        for (long i : indices) {
            T sample;
            try {
                sample = dataset.get(i);
            } catch (Error e) { // an Error is no bad sample: reported with its index, never skipped
                throw maker.failure("fetching sample " + i + " for", epoch, k, indices, i, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw maker.failure("fetching sample " + i + " for", epoch, k, indices, i, e);
                }
                maker.skips().skip(epoch, k, i, e);
                continue;
            }
            kept[samples.size()] = i;
            samples.add(sample);
        }
        return new Fetched<>(samples.size() == indices.length ? indices : Arrays.copyOf(kept, samples.size()),
                samples);
    }
}
