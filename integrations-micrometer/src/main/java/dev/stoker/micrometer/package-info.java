/**
 * A loader on a training job's dashboards: {@link dev.stoker.micrometer.LoaderMetrics} binds a
 * {@link dev.stoker.loader.DataLoader}'s stage times, counters, pool memory and settings to a
 * Micrometer registry, {@link dev.stoker.micrometer.BatchHistograms} adds per-batch histograms of
 * the consumer's wait and of each batch's assembly, and
 * {@link dev.stoker.micrometer.PrometheusEndpoint} serves a Prometheus registry's scrape over
 * HTTP, on the loopback address unless told otherwise.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * new LoaderMetrics(loader, Tags.of("loader", "train")).bindTo(registry);
 * try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, 9400)) {
 *     train(loader);   // curl localhost:9400/metrics | grep stoker_stage_seconds_total
 * }
 * }</pre>
 */
package dev.stoker.micrometer;
