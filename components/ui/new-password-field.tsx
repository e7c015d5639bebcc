import { MIN_PASSWORD_LENGTH } from "@/lib/validation/fields";
import { Field } from "./field";

/** Choosing a password (sign-up, accepting an invite): the browser's minimum is the server's, and the hint says it. */
export function NewPasswordField({ error }: { error?: string }) {
  return (
    <Field
      label="Password"
      id="password"
      name="password"
      type="password"
      autoComplete="new-password"
      minLength={MIN_PASSWORD_LENGTH}
      required
      note={`At least ${MIN_PASSWORD_LENGTH} characters. A long phrase is easier to remember and harder to guess.`}
      error={error}
    />
  );
}
