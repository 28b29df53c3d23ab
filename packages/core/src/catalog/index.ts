// PLACEHOLDER (replaced by the catalog work): the public catalog and legacy agent names.
import type { OperationContext } from '../extract/context.ts';
export interface CatalogOperations {}
export function catalogOperations(_ctx: OperationContext): CatalogOperations {
  return {};
}
