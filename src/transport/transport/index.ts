export type { InboundContext, SendOptions, SentKind, Transport, TransportReceiver } from "./transport.types.js";
