// Properties of the downgrade on random 2025-11-25 messages: what an older revision receives is valid
// in that revision's own schema, with no key the revision does not declare; the newest revision gets
// the very object; an unchanged message comes back as itself; nothing given is modified.
import { isDeepStrictEqual } from "node:util";
import * as fc from "fast-check";
import type * as z from "zod/mini";
import { describe, expect, it } from "vitest";

import { METHODS, type ProtocolVersion } from "../constants/index.js";
import { CODECS } from "../schemas/codecs.js";
import { MetaSchema, RequestMetaSchema } from "../schemas/jsonrpc.js";
import * as oldest from "../schemas/revisions/2024-11-05.js";
import * as newest from "../schemas/revisions/2025-11-25.js";
import { validate } from "../schemas/validate.js";
import { NOT_IN_REVISION, encodeNotificationFor, encodeResultFor, encodeServerRequestFor } from "./downgrade.js";
import { arbitraryOf, strictOf } from "./downgrade.test-helpers.js";

type Schema = z.core.$ZodType;

const OLDER = ["2024-11-05", "2025-03-26", "2025-06-18"] as const satisfies readonly ProtocolVersion[];
// A tool's schemas are JSON Schema documents, passed as they are; `_meta` is open in every revision.
const OPEN = new Set<Schema>([
  oldest.ToolInputSchemaSchema,
  newest.ToolInputSchemaSchema,
  newest.ToolOutputSchemaSchema,
  MetaSchema,
  RequestMetaSchema,
]);
const RUNS = { numRuns: 150 };

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** "valid" when the encoded value is valid in `schema` of the older revision and declares nothing the revision lacks; else the issues. */
function checkIn(schema: Schema, encoded: unknown): string {
  const loose = validate(schema, encoded);
  const strict = validate(strictOf(schema, OPEN), encoded);
  return loose.ok && strict.ok ? "valid" : `${loose.ok ? "" : loose.issues} / strict: ${strict.ok ? "" : strict.issues}`;
}

/**
 * What became of a message for a revision: "not sent", or its check in the revision's schema (a schema of undefined: the revision lacks
 * it).
 */
function outcome(schema: Schema | undefined, encoded: unknown): string {
  if (encoded === NOT_IN_REVISION) return "not sent";
  return schema ? checkIn(schema, encoded) : "sent, though the revision lacks it";
}

/** An equal copy is never made: what needs no change comes back as itself. */
function needlessCopy(encoded: unknown, given: unknown): boolean {
  return encoded !== given && isDeepStrictEqual(encoded, given);
}

/** A random 2025-11-25 value of `schema` (checked to be one), frozen. */
function newestValue(schema: Schema): fc.Arbitrary<unknown> {
  return arbitraryOf(schema).map((value) => {
    expect(validate(schema, value).ok).toBe(true);
    return deepFreeze(value);
  });
}

const RESULTS: ReadonlyArray<readonly [string, Schema]> = [
  [METHODS.initialize, newest.InitializeResultSchema],
  [METHODS.toolsList, newest.ListToolsResultSchema],
  [METHODS.toolsCall, newest.CallToolResultSchema],
  [METHODS.resourcesList, newest.ListResourcesResultSchema],
  [METHODS.resourcesTemplatesList, newest.ListResourceTemplatesResultSchema],
  [METHODS.resourcesRead, newest.ReadResourceResultSchema],
  [METHODS.promptsList, newest.ListPromptsResultSchema],
  [METHODS.promptsGet, newest.GetPromptResultSchema],
  [METHODS.completionComplete, newest.CompleteResultSchema],
];

describe("encodeResultFor on random 2025-11-25 results (property)", () => {
  it.each(RESULTS)("%s: valid and strict in every older revision, untouched in the newest", (method, schema) => {
    fc.assert(
      fc.property(fc.constantFrom(...OLDER), newestValue(schema), (version, value) => {
        expect(encodeResultFor("2025-11-25", method, value)).toBe(value);
        const encoded = encodeResultFor(version, method, value);
        expect(checkIn((CODECS[version].clientRequests[method] as { result: Schema }).result, encoded)).toBe("valid");
        expect(needlessCopy(encoded, value)).toBe(false);
      }),
      RUNS,
    );
  });

  it("keeps a tool's structured output readable as JSON text where the revision has no structuredContent", () => {
    fc.assert(
      fc.property(fc.constantFrom("2024-11-05", "2025-03-26"), newestValue(newest.CallToolResultSchema), (version, value) => {
        const structured = (value as { structuredContent?: unknown }).structuredContent;
        const { content } = encodeResultFor(version, METHODS.toolsCall, value) as { content: Array<{ type: string; text?: string }> };
        const mirrored = content.some((block) => block.type === "text" && block.text === JSON.stringify(structured));
        expect(structured === undefined || mirrored).toBe(true);
      }),
      RUNS,
    );
  });
});

const REQUESTS: ReadonlyArray<readonly [string, Schema]> = [
  [METHODS.samplingCreateMessage, newest.CreateMessageRequestParamsSchema],
  [METHODS.elicitationCreate, newest.ElicitRequestParamsSchema],
  [METHODS.rootsList, newest.ListRootsRequestParamsSchema],
  [METHODS.ping, newest.PingRequestParamsSchema],
  [METHODS.tasksGet, newest.GetTaskRequestParamsSchema],
  [METHODS.tasksList, newest.ListTasksRequestParamsSchema],
];

/** The older revision's schema of these params; undefined when it has no such request (in this mode). */
function requestSchema(version: ProtocolVersion, method: string, params: unknown): Schema | undefined {
  const url = typeof params === "object" && params !== null && (params as { mode?: unknown }).mode === "url";
  return method === METHODS.elicitationCreate && url ? undefined : CODECS[version].serverRequests[method]?.params;
}

describe("encodeServerRequestFor on random 2025-11-25 params (property)", () => {
  it.each(REQUESTS)("%s: valid and strict where the revision has it, not sent where it has not", (method, schema) => {
    fc.assert(
      fc.property(fc.constantFrom(...OLDER), newestValue(schema), (version, params) => {
        expect(encodeServerRequestFor("2025-11-25", method, params)).toBe(params);
        const older = requestSchema(version, method, params);
        const encoded = encodeServerRequestFor(version, method, params);
        expect(outcome(older, encoded)).toBe(older ? "valid" : "not sent");
        expect(needlessCopy(encoded, params)).toBe(false);
      }),
      RUNS,
    );
  });
});

/** The older revision's schema of these params; undefined when it has no such notification (or a cancellation naming no request). */
function notificationSchema(version: ProtocolVersion, method: string, params: unknown): Schema | undefined {
  const unnamed = method === "notifications/cancelled" && (params as { requestId?: unknown }).requestId === undefined;
  return unnamed ? undefined : CODECS[version].serverNotifications[method];
}

describe("encodeNotificationFor on random 2025-11-25 notifications (property)", () => {
  it.each(Object.entries(newest.codec.serverNotifications))(
    "%s: valid and strict where the revision has it, not sent where it has not",
    (method, schema) => {
      fc.assert(
        fc.property(fc.constantFrom(...OLDER), newestValue(schema), (version, params) => {
          expect(encodeNotificationFor("2025-11-25", method, params)).toBe(params);
          const older = notificationSchema(version, method, params);
          const encoded = encodeNotificationFor(version, method, params);
          expect(outcome(older, encoded)).toBe(older ? "valid" : "not sent");
          expect(needlessCopy(encoded, params)).toBe(false);
        }),
        RUNS,
      );
    },
  );
});
