import { TermsPage } from '../../features/terms/components/terms-page.tsx';

export function Component() {
  return <TermsPage />;
}
