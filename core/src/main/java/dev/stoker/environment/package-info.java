/**
 * What Stoker can use in this JVM and on this machine, checked at run time: JVM flags (native
 * access, the Vector API, the opens LMDB needs), native libraries (libjpeg-turbo, libcudart), and
 * kernel settings (transparent huge pages). {@link dev.stoker.environment.Environment#current()}
 * gathers every module's findings into one block; {@code stoker --version} prints it.
 * docs/jvm-flags.md says which flag each module needs and why.
 */
package dev.stoker.environment;
