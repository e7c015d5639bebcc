/**
 * A new password for the command line: read from stdin (so it never appears in
 * the shell's history or the process list), or generated and printed once.
 */
import { randomBytes } from "node:crypto";
import { newPassword } from "@/lib/validation/accounts";
import { UsageError, type Io } from "./command";

export type NewPassword = { password: string; generated: boolean };

/** 144 random bits in 24 URL-safe characters: easy to paste, never worth guessing. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

export async function passwordFrom(io: Io, fromStdin: boolean): Promise<NewPassword> {
  if (!fromStdin) return { password: generatePassword(), generated: true };
  // One trailing newline is the end of the line `echo` or a file adds, not part of the password.
  const text = (await io.stdin()).replace(/\r?\n$/, "");
  const parsed = newPassword.safeParse(text);
  if (!parsed.success) throw new UsageError(`The password on stdin: ${parsed.error.issues[0]?.message}`);
  return { password: parsed.data, generated: false };
}

/** How a generated password is shown: once, on its own line, with what to do next. */
export function showPassword(io: Io, email: string, password: NewPassword): void {
  if (!password.generated) return;
  io.out(`Password for ${email} (shown only this once; pass it on safely):`);
  io.out(`  ${password.password}`);
}
