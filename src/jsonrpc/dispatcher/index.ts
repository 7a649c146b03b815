export { JsonRpcDispatcher } from "./dispatcher.js";
export type * from "./dispatcher.types.js";
