export type { InboundContext, SendOptions, Transport, TransportReceiver } from "./transport.types.js";
