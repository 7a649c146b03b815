export { InMemoryTransport } from "./in-memory.js";
