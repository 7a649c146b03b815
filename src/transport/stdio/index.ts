export { DEFAULT_MAX_FRAME_BYTES, StdioTransport, type StdioTransportOptions, type StdioWritable } from "./stdio.js";
