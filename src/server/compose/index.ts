// Composition of servers: mount() puts one server's tools, prompts and resources in another, under a prefix.
export { mount } from "./mount.js";
export type { MountHandle, MountOptions, ToolCall, ToolTransform } from "./mount.types.js";
