/**
 * The README's loop as a named module: Stoker's modules are required by their stable names, and
 * native access is given to them by name ({@code --enable-native-access=dev.stoker.core,dev.stoker.vision}).
 */
module dev.stoker.examples.modulepath {
    requires dev.stoker.core;
    // not used by the loop: here so that its environment probe is on the module path too
    requires dev.stoker.vision;

    // to list the probes ourselves, and the modules they came from
    uses dev.stoker.environment.EnvironmentProbe;
}
