// MCPClient's mutants: the unit tests, plus the e2e files that drive MCPClient in-process against
// src/ (its handshake, lists, tools, resources, prompts, server requests, close, and the HTTP client
// transports under it). They share a module graph with the unit tests, as in vitest.config.ts.
import { defineConfig, mergeConfig } from "vitest/config";
import unit from "./vitest.config.js";

const CLIENT_E2E = ["e2e/client-*.test.ts", "e2e/handshake.test.ts", "e2e/sdk-bridge.test.ts", "e2e/http-client-*.test.ts"];

export default mergeConfig(
  unit,
  defineConfig({ test: { projects: [{ extends: true, test: { name: "client-e2e", include: CLIENT_E2E, isolate: false } }] } }),
);
