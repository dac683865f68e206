package dev.stoker.sampler;

/**
 * Keeps the {@code capacity} smallest (key, item) pairs offered, in a max-heap, and hands them out
 * in ascending order: O(m log capacity) for m offers and O(capacity) memory. Ties on the key go to
 * the smaller item, so the result never depends on the order of offers.
 *
 * <pre>{@code
 * SmallestKeys s = new SmallestKeys(2);
 * s.offer(0.5, 7); s.offer(0.1, 3); s.offer(0.9, 1);
 * s.ascendingItems();   // [3, 7]
 * }</pre>
 */
final class SmallestKeys {
    private final double[] keys;
    private final int[] items;
    private int count;

    SmallestKeys(int capacity) {
        keys = new double[capacity];
        items = new int[capacity];
    }

    void offer(double key, int item) {
        if (count < keys.length) {
            keys[count] = key;
            items[count] = item;
            siftUp(count++);
        } else if (count > 0 && before(key, item, keys[0], items[0])) {
            keys[0] = key;
            items[0] = item;
            siftDown(0, count);
        }
    }

    /** The kept items, smallest key first; empties the heap. */
    long[] ascendingItems() {
        long[] out = new long[count];
        for (int last = count - 1; last >= 0; last--) {
            out[last] = items[0];
            swap(0, last);
            siftDown(0, last);
        }
        count = 0;
        return out;
    }

    private static boolean before(double k1, int i1, double k2, int i2) {
        return k1 < k2 || (k1 == k2 && i1 < i2);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!before(keys[parent], items[parent], keys[i], items[i])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i, int size) {
        while (true) {
            int largest = i;
            int left = 2 * i + 1;
            int right = left + 1;
            if (left < size && before(keys[largest], items[largest], keys[left], items[left])) {
                largest = left;
            }
            if (right < size && before(keys[largest], items[largest], keys[right], items[right])) {
                largest = right;
            }
            if (largest == i) {
                return;
            }
            swap(i, largest);
            i = largest;
        }
    }

    private void swap(int a, int b) {
        double k = keys[a];
        keys[a] = keys[b];
        keys[b] = k;
        int it = items[a];
        items[a] = items[b];
        items[b] = it;
    }
}
