// The examples of RFC 7515 Appendix A (JWS) and RFC 8037 Appendix A (Ed25519), as published.
import { describe, expect, it } from "vitest";

import { importPrivateJwk, importPublicJwk } from "./jwk.js";
import { b64u, refusal } from "./jose.test-helpers.js";
import { verifyJws } from "./jws.js";

// RFC 7515 A.1–A.3, A.5: {"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}
const JOE = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
const JOE_CLAIMS = { iss: "joe", exp: 1300819380, "http://example.com/is_root": true };

const A1_HS256 = `eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.${JOE}.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk`;

const A2_KEY = {
  kty: "RSA",
  n:
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yR" +
    "T-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXB" +
    "dQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9ia" +
    "GNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
  e: "AQAB",
  d:
    "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46su" +
    "i395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4" +
    "qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB" +
    "4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ",
  p:
    "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8" +
    "cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc",
  q:
    "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t" +
    "62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc",
  dp:
    "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCj" +
    "n12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0",
  dq:
    "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnw" +
    "gjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU",
  qi:
    "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93" +
    "IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U",
};
const A2_SIGNATURE =
  "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9" +
  "uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB" +
  "_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rq" +
  "Vt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw";
const A2_RS256 = `eyJhbGciOiJSUzI1NiJ9.${JOE}.${A2_SIGNATURE}`;

const A3_KEY = {
  kty: "EC",
  crv: "P-256",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
  d: "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI",
};
// The A.3 signature, as A.6 and A.7 repeat it.
const A3_ES256 = `eyJhbGciOiJFUzI1NiJ9.${JOE}.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q`;

const A5_NONE = `eyJhbGciOiJub25lIn0.${JOE}.`;

// RFC 8037 A.1 (the key), A.4 (header {"alg":"EdDSA"}, payload "Example of Ed25519 signing").
const ED_KEY = {
  kty: "OKP",
  crv: "Ed25519",
  d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
  x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
};
const ED_SIGNING_INPUT = `eyJhbGciOiJFZERTQSJ9.${b64u("Example of Ed25519 signing")}`;
const ED_SIGNATURE = "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";

const publicPart = (jwk: Record<string, string>, ...members: string[]): Record<string, string> =>
  Object.fromEntries(members.map((member) => [member, jwk[member] as string]));
const flipLast = (token: string): string => `${token.slice(0, -1)}${token.endsWith("A") ? "Q" : "A"}`;

describe("RFC 7515 Appendix A", () => {
  it("A.1 (HS256) is refused: no HMAC algorithms", async () => {
    expect(
      await refusal(
        verifyJws(A1_HS256, () => []),
        "alg",
      ),
    ).toBe("Token rejected (alg): the alg is not one of ES256, RS256, PS256, EdDSA");
  });

  it("A.2 (RS256) verifies with the RFC's public key; our import of its private key writes the RFC's very signature", async () => {
    const verifier = await importPublicJwk(publicPart(A2_KEY, "kty", "n", "e"), "RS256");
    expect(await verifyJws(A2_RS256, verifier)).toEqual({ header: { alg: "RS256" }, payload: JOE_CLAIMS });
    const signer = await importPrivateJwk(A2_KEY, "RS256");
    const signature = await crypto.subtle.sign(
      { name: "RSASSA-PKCS1-v1_5" },
      signer.key,
      new TextEncoder().encode(`eyJhbGciOiJSUzI1NiJ9.${JOE}`),
    );
    expect(b64u(new Uint8Array(signature))).toBe(A2_SIGNATURE);
    expect(await refusal(verifyJws(flipLast(A2_RS256), verifier), "signature")).toBe(
      "Token rejected (signature): the signature does not verify",
    );
  });

  it("A.3 (ES256) verifies with the RFC's public key; its private key imports", async () => {
    const verifier = await importPublicJwk(publicPart(A3_KEY, "kty", "crv", "x", "y"));
    expect(await verifyJws(A3_ES256, verifier)).toEqual({ header: { alg: "ES256" }, payload: JOE_CLAIMS });
    expect((await importPrivateJwk(A3_KEY)).alg).toBe("ES256");
    expect(await refusal(verifyJws(A3_ES256.replace(".DtEh", ".DtEi"), verifier), "signature")).toBe(
      "Token rejected (signature): the signature does not verify",
    );
  });

  it("A.5 (alg none) is refused", async () => {
    expect(
      await refusal(
        verifyJws(A5_NONE, () => []),
        "alg",
      ),
    ).toBe("Token rejected (alg): alg none (an unsecured JWS) is refused");
  });
});

describe("RFC 8037 Appendix A (Ed25519)", () => {
  it("A.4: A.1's key, as we import it, writes the RFC's signature; the JWS verifies; only its payload (not JSON) is refused", async () => {
    const signer = await importPrivateJwk(ED_KEY);
    const signature = await crypto.subtle.sign({ name: "Ed25519" }, signer.key, new TextEncoder().encode(ED_SIGNING_INPUT));
    expect(b64u(new Uint8Array(signature))).toBe(ED_SIGNATURE);
    const verifier = await importPublicJwk(publicPart(ED_KEY, "kty", "crv", "x"));
    expect(await refusal(verifyJws(`${ED_SIGNING_INPUT}.${ED_SIGNATURE}`, verifier), "payload")).toBe(
      "Token rejected (payload): the payload is not a JSON object",
    );
    expect(await refusal(verifyJws(`${ED_SIGNING_INPUT}.${flipLast(ED_SIGNATURE)}`, verifier), "signature")).toBe(
      "Token rejected (signature): the signature does not verify",
    );
  });
});
