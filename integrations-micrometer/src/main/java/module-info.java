/** The loader's metrics as Micrometer meters, and a Prometheus scrape endpoint. */
// Their jars name themselves (Automatic-Module-Name), so the names are stable.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.stoker.micrometer {
    requires transitive dev.stoker.core;
    // MeterRegistry, MeterBinder and PrometheusMeterRegistry are in this module's API
    requires transitive micrometer.core;
    requires transitive micrometer.registry.prometheus;

    exports dev.stoker.micrometer;
}
