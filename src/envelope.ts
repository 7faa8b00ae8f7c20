// What every check answers: whether it blocks, why, and details whose
// fields depend on its kind (each kind names them in a Details type).
export type Details = { readonly kind: string } & Readonly<Record<string, unknown>>;

export interface Envelope<D extends { readonly kind: string } = Details> {
  readonly block: boolean;
  readonly message: string;
  readonly details: D;
}
