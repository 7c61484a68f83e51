import { Trans } from '@lingui/react/macro';
import { Anchor, Button, List, Menu, Text } from '@mantine/core';
import { caseOrderTypes, type CaseDetail } from '@portal/contract';
import { IconChevronDown, IconGitBranch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { casePath, paths } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { serverText } from '../../../../lib/server-text.ts';

/** The case form's address for an order of `orderType` from a case (docs/decisions/cases.md § Orders from a case). */
const orderFormPath = (caseId: number, orderType: string) =>
  `${paths.cases}?${new URLSearchParams({ from: String(caseId), order: orderType }).toString()}`;

/** "Order from this case": a refinement, retainer or replacement, each opening the form prefilled. */
export function OrderFromCaseMenu({ caseId }: { caseId: number }) {
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconGitBranch size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          <Trans>Order from this case</Trans>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {caseOrderTypes.map((orderType) => (
          <Menu.Item key={orderType} onClick={() => void navigate(orderFormPath(caseId, orderType))}>
            {serverText(orderType)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** "Refinement of AL-...", linking to the case this one was ordered from. */
export function CaseParentLink({ caseRow }: { caseRow: CaseDetail }) {
  if (caseRow.parentCaseId === null || caseRow.orderType === null) return null;
  const order = serverText(caseRow.orderType);
  const parentTrackingNo = caseRow.parentTrackingNo;
  return (
    <Text size="sm">
      <Trans>
        {order} of{' '}
        <Anchor component={Link} to={casePath(caseRow.parentCaseId)}>
          {parentTrackingNo}
        </Anchor>
      </Trans>
    </Text>
  );
}

/** The cases ordered from this one, oldest first. */
export function CaseOrderList({ orders }: { orders: CaseDetail['orders'] }) {
  return (
    <List size="sm" spacing={4}>
      {orders.map((order) => {
        const orderType = serverText(order.orderType);
        const trackingNo = order.trackingNo;
        const orderedAt = formatDateTime(order.createdAt);
        return (
          <List.Item key={order.caseId}>
            <Trans>
              {orderType}{' '}
              <Anchor component={Link} to={casePath(order.caseId)} size="sm">
                {trackingNo}
              </Anchor>{' '}
              <Text span size="xs" c="dimmed">
                ordered {orderedAt}
              </Text>
            </Trans>
          </List.Item>
        );
      })}
    </List>
  );
}
