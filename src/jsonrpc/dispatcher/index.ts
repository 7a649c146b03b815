export { JsonRpcDispatcher } from "./dispatcher.js";
export type * from "./dispatcher.types.js";
// What `codec` gives and what params schemas may be: the zod-free wire schemas (src/wire/).
export type { WireCodec, WireMethodSchemas } from "../../wire/wire-codecs.js";
export type { WireSchema } from "../../wire/wire-schema.js";
