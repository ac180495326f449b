/** A model's name, marked when a simulated model played that role (no real model was called). */
export function ModelName({ model, simulated }: { model: string | null; simulated: boolean }) {
  if (model === null) return <>—</>;
  return (
    <>
      {model}
      {simulated ? <span className="muted"> (simulated)</span> : null}
    </>
  );
}
