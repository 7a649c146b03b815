// Every revision's codec, keyed by the version string negotiated in `initialize`.
import type { ProtocolVersion } from "../constants/index.js";
import type { RevisionCodec } from "./codec.js";
import { codec as codec20241105 } from "./revisions/2024-11-05.js";
import { codec as codec20250326 } from "./revisions/2025-03-26.js";
import { codec as codec20250618 } from "./revisions/2025-06-18.js";
import { codec as codec20251125 } from "./revisions/2025-11-25.js";

export const CODECS: Readonly<Record<ProtocolVersion, RevisionCodec>> = {
  "2024-11-05": codec20241105,
  "2025-03-26": codec20250326,
  "2025-06-18": codec20250618,
  "2025-11-25": codec20251125,
};

/** The codec of a negotiated revision. */
export function codecFor(version: ProtocolVersion): RevisionCodec {
  return CODECS[version];
}
