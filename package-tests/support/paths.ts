// Where the package tests keep what they make: a gitignored scratch folder inside the repository
// (so a consumer project there installs the packed tarball next to nothing else of ours).
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SCRATCH = fileURLToPath(new URL("../.scratch/", import.meta.url));
/** The consumer project that installs the packed tarball, as a user's app would. */
export const CONSUMER = fileURLToPath(new URL("../.scratch/consumer/", import.meta.url));
/** Written by the global setup: what `npm pack --json` said about the tarball. */
export const PACK_INFO = fileURLToPath(new URL("../.scratch/pack.json", import.meta.url));

export interface PackInfo {
  readonly tarball: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly string[];
}
