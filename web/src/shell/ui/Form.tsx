/** Inline form error: the SPEC message plus, when given, the server's own message. */
export function FormError({ message, detail }: { message: string; detail?: string }) {
  return (
    <div className="form-error" role="alert">
      <p>{message}</p>
      {detail && detail !== message ? <p className="form-error__detail">{detail}</p> : null}
    </div>
  );
}
