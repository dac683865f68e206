/**
 * Hugging Face tokenizers through DJL's binding (native code, loaded by DJL through JNI).
 * DJL's jars name themselves ({@code ai.djl.tokenizers}, {@code ai.djl.api}).
 */
// Its dependency names itself (Automatic-Module-Name), so the name is stable.
@SuppressWarnings("requires-automatic")
module dev.stoker.text.tokenizers {
    requires transitive dev.stoker.core;
    requires ai.djl.tokenizers;
    // tokenizer.json's fields that DJL does not expose
    requires com.google.gson;

    exports dev.stoker.text.tokenizers;
}
