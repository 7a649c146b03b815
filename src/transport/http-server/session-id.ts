/** A session id: 256 random bits as hex — unguessable, and only visible ASCII as the spec requires. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
