export {
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  StdioTransport,
  type StdioTransportOptions,
  type StdioWritable,
} from "./stdio.js";
