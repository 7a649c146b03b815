// Helpers for the revision tests: reach a schema through a codec, and check a value against two
// revisions at once.
import type * as z from "zod/mini";

import type { AnyProtocolVersion } from "../../constants/index.js";
import type { RevisionCodec } from "../codec.js";
import { codecFor } from "../codecs.js";
import { validate } from "../validate.js";

/** Picks one schema out of a codec; undefined when the revision lacks the method. */
export type SchemaPicker = (codec: RevisionCodec) => z.core.$ZodType | undefined;

export const clientParams =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.clientRequests[method]?.params;
export const clientResult =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.clientRequests[method]?.result;
export const serverParams =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.serverRequests[method]?.params;
export const serverResult =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.serverRequests[method]?.result;
export const clientNotification =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.clientNotifications[method];
export const serverNotification =
  (method: string): SchemaPicker =>
  (codec) =>
    codec.serverNotifications[method];

/** Whether `version` accepts `value` at `pick`; a method the revision lacks accepts nothing. */
export function accepts(version: AnyProtocolVersion, pick: SchemaPicker, value: unknown): boolean {
  const schema = pick(codecFor(version));
  return schema !== undefined && validate(schema, value).ok;
}

/** A labelled value, the schema it goes to, and whether the older and newer revision accept it. */
export type Difference = readonly [label: string, pick: SchemaPicker, value: unknown, older: boolean, newer: boolean];

/** A labelled value and the schema it goes to. */
export type Probe = readonly [label: string, pick: SchemaPicker, value: unknown];

/** A field the newer revision types: the older one lets a mistyped value through as an unknown key. */
export const newlyTyped =
  (field?: string) =>
  ([label, pick, value]: Probe): Difference => [
    field ? `${field} of the wrong type on ${label}` : `${label} of the wrong type`,
    pick,
    value,
    true,
    false,
  ];

export const tool = { name: "search", inputSchema: { type: "object" } };
export const implementation = { name: "example", version: "1.0.0" };
export const textContent = { type: "text", text: "hi" };
export const audioContent = { type: "audio", data: "UklGRg==", mimeType: "audio/wav" };
export const resourceLink = { type: "resource_link", uri: "file:///a.txt", name: "a" };
export const initializeResult = (extra: object): object => ({
  protocolVersion: "2025-11-25",
  capabilities: {},
  serverInfo: implementation,
  ...extra,
});
export const initializeParams = (extra: object): object => ({
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: implementation,
  ...extra,
});
