/**
 * Sends a form to a useActionState dispatch without React's automatic form reset:
 * after an action passed as `<form action>`, React resets the form's fields, which
 * put a controlled select back to its first option while its state kept the choice
 * — so the next submit sent a place the person had not chosen. The pressed button's
 * name and value travel with the fields, as with a native submit.
 */
import { startTransition, type FormEvent } from "react";

export function submitWith(dispatch: (data: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(event.currentTarget, submitter);
    startTransition(() => dispatch(data));
  };
}
