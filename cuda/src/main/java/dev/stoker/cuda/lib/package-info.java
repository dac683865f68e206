/** Finding NVIDIA's shared libraries at run time and binding the calls Stoker uses; not exported. */
package dev.stoker.cuda.lib;
