// Every revision's codec, keyed by its version string: the one negotiated in `initialize` up to
// 2025-11-25, the one each request names in its `_meta` from 2026-07-28 on.
import type { AnyProtocolVersion } from "../constants/index.js";
import type { RevisionCodec } from "./codec.js";
import { codec as codec20241105 } from "./revisions/2024-11-05.js";
import { codec as codec20250326 } from "./revisions/2025-03-26.js";
import { codec as codec20250618 } from "./revisions/2025-06-18.js";
import { codec as codec20251125 } from "./revisions/2025-11-25.js";
import { codec as codec20260728 } from "./revisions/2026-07-28.js";

export const CODECS: Readonly<Record<AnyProtocolVersion, RevisionCodec>> = {
  "2024-11-05": codec20241105,
  "2025-03-26": codec20250326,
  "2025-06-18": codec20250618,
  "2025-11-25": codec20251125,
  "2026-07-28": codec20260728,
};

/** The codec of a revision. */
export function codecFor(version: AnyProtocolVersion): RevisionCodec {
  return CODECS[version];
}
