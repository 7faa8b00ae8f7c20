import type { Resolved } from './activation.ts';
import type { GateDeclaration } from './declaration.ts';

// One gate of a loop point, from a capability file or from GSD's rendered
// hooks, as the point runner takes it.
export interface PointGate {
  // The capability's id (its file path when it has none).
  readonly capability: string;
  // The capability file's directory: GSD_CAP_DIR for the gate's command.
  readonly capDir?: string | undefined;
  // Its position among the capability's gates (declared, or rendered).
  readonly index: number;
  readonly declaration: GateDeclaration;
  // How its `when` resolved; undefined when it came active from GSD.
  readonly activation?: Resolved | undefined;
}
