import { randomHex } from "../../protocol/bytes-text.js";

/** A session id: 256 random bits as hex — unguessable, and only visible ASCII as the spec requires. */
export function newSessionId(): string {
  return randomHex(32);
}
