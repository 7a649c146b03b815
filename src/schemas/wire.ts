// What the library needs of zod at run time, loaded with the first connection (see wire-loader.ts):
// the codecs of the revisions, `validate`, and two schemas the client checks data with.
export { codecFor } from "./codecs.js";
export { validate } from "./validate.js";
export { ElicitationCompleteNotificationParamsSchema, URLElicitationRequiredErrorDataSchema } from "./revisions/2025-11-25.js";
