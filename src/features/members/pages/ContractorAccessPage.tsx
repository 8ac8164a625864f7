import { MembersPanel } from '../components/MembersPanel';
import { CONTRACTORS } from '../components/types';

/** P1: the logins the exhibitor grants its booth contractors (/myParticipation/contractorAccess). */
export default function ContractorAccessPage() {
  return <MembersPanel kind={CONTRACTORS} />;
}
