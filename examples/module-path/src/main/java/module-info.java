/** The README's loop as a named module: Stoker's core is required by its stable module name. */
module dev.stoker.examples.modulepath {
    requires dev.stoker.core;
}
