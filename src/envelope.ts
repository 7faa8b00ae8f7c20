export interface Envelope {
  readonly block: boolean;
  readonly message: string;
  readonly details: { readonly kind: string } & Readonly<Record<string, unknown>>;
}
