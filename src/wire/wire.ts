// What the library validates protocol messages with, loaded with the first connection (see
// src/schemas/wire-loader.ts): each revision's codec and two schemas the client checks data with.
// No zod: the wire tables are compiled on first use.
export { codecFor, ElicitationCompleteNotificationParamsSchema, URLElicitationRequiredErrorDataSchema } from "./wire-codecs.js";
