import { describe, expect, it } from "vitest";

import { FORMAT_CHECKERS } from "./index.js";

function checkerFor(format: string): (text: string) => boolean {
  const checker = FORMAT_CHECKERS.get(format);
  if (checker === undefined) throw new Error(`no checker for ${format}`);
  return checker;
}

const SAMPLES: Record<string, { readonly valid: readonly string[]; readonly invalid: readonly string[] }> = {
  "date-time": {
    valid: ["2024-02-29T10:20:30Z", "2024-01-01t00:00:00.123+05:30", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60.5-08:00"],
    invalid: ["2024-02-30T10:20:30Z", "2024-01-01 10:20:30Z", "2024-01-01T10:20:30", "2024-01-01", "1998-12-31T22:59:60Z"],
  },
  date: {
    valid: ["2024-02-29", "2000-02-29", "2023-04-30", "2023-12-31"],
    invalid: ["2023-02-29", "1900-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "2023-1-01", "2023-01-01T00:00:00Z"],
  },
  time: {
    valid: ["08:30:06Z", "23:59:60Z", "00:29:60-23:30", "01:29:60+01:30", "12:34:56.789-00:00", "08:30:06z"],
    invalid: [
      "08:30:06",
      "24:00:00Z",
      "00:60:00Z",
      "00:00:61Z",
      "22:59:60Z",
      "23:59:60+01:00",
      "01:02:03+24:00",
      "01:02:03+00:60",
      "8:30:06Z",
    ],
  },
  duration: {
    valid: ["P4DT12H30M5S", "P1Y2M", "P1M3D", "PT36H", "PT1M2S", "P2W", "P0D"],
    invalid: ["P", "PT", "P1Y2D", "PT1H2S", "P1Y2W", "P1D2H", "4DT12H", "P1.5D"],
  },
  email: {
    valid: [
      "joe.bloggs@example.com",
      "te~st@example.com",
      '"joe bloggs"@example.com',
      '"a@b"@example.com',
      "a@[127.0.0.1]",
      "a@[IPv6:::1]",
    ],
    invalid: [
      "2962",
      "@example.com",
      "joe@",
      ".a@example.com",
      "a.@example.com",
      "a..b@example.com",
      "a b@example.com",
      "a@[127.0.0.300]",
      "a@[IPv6:1::2::3]",
      "a@exa_mple.com",
    ],
  },
  hostname: {
    valid: ["www.example.com", "localhost", "1host", "a--b.com", `${"a".repeat(63)}.com`],
    invalid: [
      "",
      ".",
      "example.",
      "-host",
      "host-",
      "host_name",
      `${"a".repeat(64)}.com`,
      `${"a".repeat(63)}.`.repeat(4) + "com",
      "kelvin\u212A.com",
    ],
  },
  ipv4: {
    valid: ["192.168.0.1", "0.0.0.0", "255.255.255.255"],
    invalid: ["256.0.0.1", "087.10.0.1", "1.2.3", "1.2.3.4.5", "1.2.3.a", "1.2.3.\u09E8"],
  },
  ipv6: {
    valid: ["::1", "::", "1::", "fe80::1:2:3", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::ffff:192.168.0.1", "1:2:3:4:5:6:1.2.3.4"],
    invalid: [
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "1::2::3",
      ":1:2:3:4:5:6:7",
      "12345::",
      "::ffff:01.2.3.4",
      "::1.2.3.4.5",
      "[::1]",
      "fe80::1%eth0",
      "1.2.3.4",
      "::g",
    ],
  },
  uri: {
    valid: [
      "http://foo.bar/?baz=qux#quux",
      "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
      "ldap://[2001:db8::7]/c=GB?objectClass?one",
      "mailto:John.Doe@example.com",
      "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
      "http://example.com:8080/a",
    ],
    invalid: [
      "//foo.bar/?baz=qux#quux",
      "/abc",
      "abc",
      "http:// shouldfail.com",
      "bar,baz:foo",
      "https://[@example.org/test.txt",
      "https://example.org/foobar®.txt",
      "http://example.com/%6G",
      "http://example.com:abc/path",
      "http://[::ffff:01.2.3.4]",
      "http:/[::1]",
      "1http://example.com",
      "http://a/b?c d",
      "http://a/b#c#d",
    ],
  },
  "uri-reference": {
    valid: ["http://foo.bar/?baz=qux#quux", "//foo.bar/?baz=qux#quux", "/abc", "abc", "#fragment", "", "../x?y"],
    invalid: ["\\\\WINDOWS\\fileshare", "abc#ab\\c", "1http:x", "#a b"],
  },
  uuid: {
    valid: ["2EB8AA08-AA98-11EA-B4AA-73B441D16380", "00000000-0000-0000-0000-000000000000"],
    invalid: ["2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08aa9811eab4aa73b441d16380", "2eb8aa08-aa98-11ea-b4ga-73b441d16380"],
  },
  "json-pointer": {
    valid: ["", "/", "/foo/0", "/a~1b/c~0d", "/ "],
    invalid: ["foo", "/foo/~", "/~2", "#/foo"],
  },
  regex: {
    valid: ["^[a-z]+$", "\\p{L}", "(?<year>\\d{4})"],
    invalid: ["(", "\\a", "[z-a]"],
  },
};

describe("format checkers", () => {
  it("cover the formats json-schema.md lists, and only those", () => {
    expect([...FORMAT_CHECKERS.keys()].toSorted()).toEqual(Object.keys(SAMPLES).toSorted());
  });

  describe.each(Object.entries(SAMPLES))("%s", (format, { valid, invalid }) => {
    it.each(valid)("accepts %j", (text) => {
      expect(checkerFor(format)(text)).toBe(true);
    });

    it.each(invalid)("refuses %j", (text) => {
      expect(checkerFor(format)(text)).toBe(false);
    });
  });
});
