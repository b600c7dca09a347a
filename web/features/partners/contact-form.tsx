import { Button, Group, Loader, Paper, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ContactCreateSchema, ContactMessages, ContactUpdateSchema } from '../../../common/partners';
import { GENDER_OPTIONS } from '../../../common/person';
import { FormErrors } from '../../components/form-errors';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { checkWith } from '../../lib/forms';
import { ApiError } from '../../lib/http';
import { contactKey, createContact, getContact, partnerKey, updateContact } from './api';

const EMPTY = {
  firstName: '',
  preposition: '',
  lastName: '',
  gender: 'M',
  email: '',
  phoneNumber: '',
  username: '',
  password: '',
};
type Values = typeof EMPTY;

/** Contact create/edit: the password field shows only when a username is filled (spec 000 §3). */
export function ContactFormPage() {
  const { id, contactId } = useParams() as { id: string; contactId?: string };
  const isEdit = Boolean(contactId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [messages, setMessages] = useState<string[]>([]);
  const contact = useQuery({
    queryKey: contactKey(id, contactId ?? ''),
    queryFn: () => getContact(id, contactId!),
    enabled: isEdit,
    retry: false,
  });
  const form = useForm<Values>({ mode: 'controlled', initialValues: EMPTY });
  const back = `/partners/${id}/contacts`;

  useEffect(() => {
    if (contact.data) form.setValues({ ...EMPTY, ...contact.data, password: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [contact.data]);
  useEffect(() => {
    if (!contact.error) return;
    showDanger(ContactMessages.fetchFailed, contact.error);
    if (contact.error instanceof ApiError && contact.error.status === 404) navigate(back);
  }, [contact.error, navigate, back]);

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = { ...values, gender: values.gender as 'M' | 'F' | 'U' };
      return isEdit ? updateContact(id, contactId!, body) : createContact(id, body);
    },
    onSuccess: () => {
      showSuccess(isEdit ? ContactMessages.saved : ContactMessages.created);
      void client.invalidateQueries({ queryKey: partnerKey(id) });
      navigate(back);
    },
    onError: (err) => {
      setMessages(err instanceof ApiError && err.errors.length > 0 ? err.errors : [err.message]);
      showDanger(ContactMessages.saveFailed, err);
    },
  });

  function handleSubmit(values: Values) {
    const payload = { ...values, password: values.username.trim() ? values.password : '' };
    const checked = checkWith(isEdit ? ContactUpdateSchema : ContactCreateSchema, payload);
    form.setErrors(checked.fieldErrors);
    setMessages(checked.messages);
    if (checked.data) save.mutate(payload);
  }

  if (isEdit && contact.isPending) return <Loader />;
  const hasUsername = form.values.username.trim() !== '';

  return (
    <>
      <PageTitle>{isEdit ? 'Contactpersoon bewerken' : 'Nieuwe contactpersoon'}</PageTitle>
      <Paper withBorder p="md" maw={800}>
        <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
          <Stack>
            <FormErrors messages={messages} />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="Voornaam" {...form.getInputProps('firstName')} />
              <TextInput label="Tussenvoegsel" {...form.getInputProps('preposition')} />
              <TextInput label="Achternaam" {...form.getInputProps('lastName')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select label="Geslacht" data={GENDER_OPTIONS} allowDeselect={false} {...form.getInputProps('gender')} />
              <TextInput label="E-mail" type="email" {...form.getInputProps('email')} />
              <TextInput label="Telefoonnummer" {...form.getInputProps('phoneNumber')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Gebruikersnaam" autoComplete="off" {...form.getInputProps('username')} />
              {hasUsername && (
                <PasswordInput
                  label="Wachtwoord"
                  withAsterisk={!isEdit || !contact.data?.hasPassword}
                  autoComplete="new-password"
                  description={
                    isEdit && contact.data?.hasPassword
                      ? 'Laat leeg om het wachtwoord te behouden.'
                      : 'Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
                  }
                  {...form.getInputProps('password')}
                />
              )}
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={save.isPending}>
                Opslaan
              </Button>
              <Button variant="default" component={Link} to={back}>
                Terug
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
