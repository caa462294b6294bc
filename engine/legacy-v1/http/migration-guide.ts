import { renderMappingTables } from '../mapping-table';
import { API_KEY_HEADER } from '../../http/auth';
import { DEPRECATED_AT, SUNSET_AT } from './deprecation';

/**
 * The page every v1 answer links to (`Link: <…>; rel="deprecation"`). Built from the same mapping table the
 * facade runs on, so it cannot drift from it; docs/v1.md walks through it with curl.
 */
export function migrationGuide(): string {
  return `# Moving from the legacy v1 basket API to v3

The v1 basket interface under \`/api/v1\` is deprecated since ${DEPRECATED_AT} and may be removed after ${SUNSET_AT}.
It is a facade over v3: every basket is a v3 cart, named in the basket's \`cartId\`.

1. Ask the venue for an API key (\`npm run keys -- create --name NAME --scopes catalog:read,carts:write,orders:write\`)
   and send it as \`${API_KEY_HEADER}\` instead of \`X-Channel-Id\` and \`X-Checksum\`.
2. Take \`inventoryItemId\` and \`priceOptionId\` from \`GET /api/v3/occurrences/{productId}/inventory\`;
   each price option and extra there also lists the v1 \`aggregateReference\` it stands for.
3. Keep the v3 \`id\` of the cart instead of your own reference; a basket made in v1 can be checked out at once
   with \`POST /api/v3/orders\` and its \`cartId\`.
4. Read money as \`{amount, currency}\` (minor units; the scale follows from the currency) and errors as
   \`{error: {type, code, message}}\` — \`code\` is what v1 sent as \`errorCode\`. A cart that is gone answers 410.

## Mapping

${renderMappingTables()}
`;
}
