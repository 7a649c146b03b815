import type { ProtocolVersion } from "../../constants/index.js";

/**
 * Where the session-era revisions ask a server to behave differently: one row per revision, so the
 * handlers read a rule instead of comparing versions.
 */
export interface ServerRevisionRules {
  /** Tool arguments that fail the input schema: a -32602 protocol error, or (2025-11-25, SEP-1303) an `isError` result the model can correct. */
  readonly invalidToolArguments: "protocol-error" | "tool-error";
  /** Whether `completions` is a capability to declare (2025-03-26 on). */
  readonly declaresCompletions: boolean;
  /** Whether URL-mode elicitation exists. */
  readonly urlElicitation: boolean;
}

export const SERVER_REVISION_RULES: Readonly<Record<ProtocolVersion, ServerRevisionRules>> = {
  "2024-11-05": { invalidToolArguments: "protocol-error", declaresCompletions: false, urlElicitation: false },
  "2025-03-26": { invalidToolArguments: "protocol-error", declaresCompletions: true, urlElicitation: false },
  "2025-06-18": { invalidToolArguments: "protocol-error", declaresCompletions: true, urlElicitation: false },
  // Stryker disable next-line StringLiteral: only "protocol-error" is asked for; any other value makes bad arguments a tool error
  "2025-11-25": { invalidToolArguments: "tool-error", declaresCompletions: true, urlElicitation: true },
};
